// Reading a link set (spec 2.3) as a receiver: the entry about the identifier asked, and the hrefs of one link
// type. The GS1 Web Vocabulary names each link type under more than one namespace; all are read.
import { canonicalId } from "../model/index.ts";

export type LinkType = "epcis" | "masterData" | "defaultLink";

const NAMESPACES = ["https://ref.gs1.org/voc/", "https://gs1.org/voc/", "http://gs1.org/voc/", "gs1:"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOfMember(member: string): string | undefined {
  for (const ns of NAMESPACES) if (member.startsWith(ns)) return member.slice(ns.length);
  return undefined;
}

/**
 * The hrefs of `type` in the link set's entry about `identifier` (or its only entry), resolved against the URL
 * the link set came from; empty when the body is no link set or offers none.
 */
export function linksetHrefs(
  body: unknown,
  identifier: string,
  type: LinkType,
  answeredAt: string,
): string[] {
  if (!isRecord(body) || !Array.isArray(body.linkset)) return [];
  const entries = body.linkset.filter(isRecord);
  const wanted = canonicalId(identifier);
  const entry =
    entries.find((e) => typeof e.anchor === "string" && canonicalId(e.anchor) === wanted) ??
    (entries.length === 1 ? entries[0] : undefined);
  if (entry === undefined) return [];
  const hrefs: string[] = [];
  for (const [member, links] of Object.entries(entry)) {
    if (typeOfMember(member) !== type || !Array.isArray(links)) continue;
    for (const link of links) {
      if (!isRecord(link) || typeof link.href !== "string") continue;
      try {
        hrefs.push(new URL(link.href, answeredAt).href);
      } catch {
        // An href no URL parser reads leads nowhere; the others are still followed.
      }
    }
  }
  return [...new Set(hrefs)];
}
