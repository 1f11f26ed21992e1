// Which resolver requirement a resolver request fails (spec 4.2): its path (RCV-RESOLVER-PATH) and how it asks for
// a link set (RCV-LINKSET), judged once. The resolver suite records these judgments; the checks of what the
// receiver would have learned from the resolver read them, so that a request the resolver refused for its
// spelling blocks them rather than failing them again.
import { canonicalId } from "../../../src/model/index.ts";
import { identifierOf, pathProblem } from "./paths.ts";
import { learnedHrefsOf, linkTypesOf, type ReceivedRequest, resolverPathOf } from "./requests.ts";

const LINKSET_MEDIA_TYPE = "application/linkset+json";

/** Spellings of "linkset" a client may mean the link set by, and GS1 Digital Link 1.1's older value for it. */
const LINKSET_LOOKALIKE = /^(linkset|all)$/i;

/**
 * Whether and how a resolver request asks for a link set: "linkset" as spec 4.2 has it (linkType=linkset, once),
 * "media-type" by the Accept header alone, "other" by another linkType value meant for it (another casing,
 * GS1's older `all`, linkset given twice), undefined when it asks for none (a link type's redirect, the default
 * link), which RCV-LINKSET does not judge.
 */
export function linksetAsk(r: ReceivedRequest): "linkset" | "media-type" | "other" | undefined {
  const values = linkTypesOf(r);
  if (values.length === 1 && values[0] === "linkset") return "linkset";
  if (values.some((v) => LINKSET_LOOKALIKE.test(v))) return "other";
  const accept = (r.headers.get("accept") ?? []).join(",").toLowerCase();
  if (values.length === 0 && accept.includes(LINKSET_MEDIA_TYPE)) return "media-type";
  return undefined;
}

/** The resolver requirements this resolver request fails: its path, and how it asks for a link set. */
export function resolverFailures(r: ReceivedRequest): string[] {
  const failed: string[] = [];
  if (pathProblem(resolverPathOf(r)) !== undefined) failed.push("RCV-RESOLVER-PATH");
  if (linksetAsk(r) === "other") failed.push("RCV-LINKSET");
  return failed;
}

/** The resolver requests about `subject` that went unresolved for their own fault, and the requirements they fail. */
export interface Unresolved {
  requests: ReceivedRequest[];
  failed: string[];
}

/**
 * Where the receiver asked the resolver about `subject`, every such request fails RCV-RESOLVER-PATH or RCV-LINKSET,
 * and none was answered with an href (a link set's or a redirect's): the receiver was never given what the
 * subject's link set holds, and the defect is how it asked. Undefined otherwise, and where it never asked about
 * the subject at all (RCV-CANONICAL-REBASE's to judge).
 */
export function unresolvedBySpelling(
  requests: readonly ReceivedRequest[],
  subject: string,
): Unresolved | undefined {
  const wanted = canonicalId(subject);
  const about = requests.filter((r) => r.kind === "resolver" && identifierOf(resolverPathOf(r)) === wanted);
  if (about.length === 0) return undefined;
  const failures = about.map(resolverFailures);
  const refused = about.every((r, i) => failures[i]!.length > 0 && learnedHrefsOf(r).length === 0);
  return refused ? { requests: about, failed: [...new Set(failures.flat())] } : undefined;
}
