// The link types this resolver serves (spec 4.2) and the spellings a client may use for them. The spellings
// are those of the GS1 Web Vocabulary: the compact gs1: form, the ref.gs1.org URI and its gs1.org equivalents.

export const LINK_TYPE_PREFIX = "https://ref.gs1.org/voc/";

export const LINK_TYPE_NAMES = ["defaultLink", "masterData", "epcis"] as const;
export type LinkTypeName = (typeof LINK_TYPE_NAMES)[number];

/**
 * The member name of a link set entry for a link type: under spec 2.3's namespace, or under another the GS1 Web
 * Vocabulary gives the same link type (https://gs1.org/voc/, as GS1's own resolver writes it).
 */
export function linkTypeUri(name: LinkTypeName, namespace = LINK_TYPE_PREFIX): string {
  return namespace + name;
}

/** Every accepted spelling of a link type's `linkType` value. */
export function linkTypeSpellings(name: LinkTypeName): string[] {
  return [`gs1:${name}`, linkTypeUri(name), `https://gs1.org/voc/${name}`, `https://www.gs1.org/voc/${name}`];
}

/** The link type a `linkType` query value names, or undefined when it names none of the three. */
export function linkTypeOf(value: string): LinkTypeName | undefined {
  return LINK_TYPE_NAMES.find((name) => linkTypeSpellings(name).includes(value));
}
