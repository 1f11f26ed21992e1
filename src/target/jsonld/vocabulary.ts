// The GS1 Web Vocabulary under each name it goes by. The vocabulary itself (v1.16) names its terms under
// https://ref.gs1.org/voc/ and declares each owl:equivalentProperty to the same term under https://gs1.org/voc/
// and https://www.gs1.org/voc/; the EPCIS context maps gs1: to https://gs1.org/voc/. A sender writing any of them
// writes the same vocabulary (spec 2.2 names it only as "GS1 Web Vocabulary"), so all are read as one.

/** The namespace every GS1 term is read under, once a document is expanded. */
export const GS1_NAMESPACE = "https://ref.gs1.org/voc/";

/** Every namespace IRI of the GS1 Web Vocabulary a document may use, the canonical one first. */
export const GS1_VOCABULARY_NAMESPACES: readonly string[] = [
  GS1_NAMESPACE,
  "http://ref.gs1.org/voc/",
  "https://gs1.org/voc/",
  "http://gs1.org/voc/",
  "https://www.gs1.org/voc/",
  "http://www.gs1.org/voc/",
];

/** The GS1 namespace an IRI lies under, as written; undefined for an IRI outside the vocabulary. */
export function gs1NamespaceOf(iri: string): string | undefined {
  return GS1_VOCABULARY_NAMESPACES.find((ns) => iri.startsWith(ns) && iri.length > ns.length);
}

/** The IRI under the canonical namespace when it names a GS1 term, else the IRI unchanged. */
export function canonicalGs1Iri(iri: string): string {
  const ns = gs1NamespaceOf(iri);
  return ns === undefined || ns === GS1_NAMESPACE ? iri : GS1_NAMESPACE + iri.slice(ns.length);
}

/** The term's local name ("Organization") when the IRI names a GS1 term, else undefined. */
export function gs1LocalName(iri: string): string | undefined {
  const ns = gs1NamespaceOf(iri);
  return ns === undefined ? undefined : iri.slice(ns.length);
}
