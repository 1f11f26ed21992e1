// How the receiver asks the resolver (spec 4.2): numeric application identifiers in one of the six path forms, a
// link set asked with linkType=linkset, and identifiers issued under https://id.gs1.org asked at the sender's
// resolver base.
import {
  ALPHABETIC_AI_ALIASES,
  CANONICAL_DL_BASE,
  canonicalId,
  DigitalLinkError,
  parseDigitalLink,
} from "../../src/model/index.ts";
import { described, linkTypesOf, type ReceivedRequest, requestEvidence } from "./requests.ts";
import type { ReceiverChecks } from "./verdicts.ts";

/** The six path forms of spec 4.2, as their AIs in order. */
const SIX_FORMS = new Set(["00", "417", "414", "01", "01/10", "01/21"]);
const LINKSET_MEDIA_TYPE = "application/linkset+json";

/** Why a resolver path is not one of the six forms with numeric AIs, or undefined when it is. */
function pathProblem(path: string): string | undefined {
  let ais: string[];
  try {
    ais = parseDigitalLink(CANONICAL_DL_BASE + path).elements.map((e) => e.ai);
  } catch (error) {
    if (error instanceof DigitalLinkError) return error.message;
    throw error;
  }
  const form = ais.join("/");
  return SIX_FORMS.has(form)
    ? undefined
    : `the path ${path} has the AIs ${form}, which are not one of the six forms of spec 4.2 (/00, /417, /414, /01, /01/…/10, /01/…/21)`;
}

/**
 * The identifier a resolver path asks about, canonical, or undefined when it names none. An alphabetic AI is read
 * as its numeric one here: asking the right resolver with the wrong spelling is RCV-RESOLVER-PATH's to judge.
 */
function identifierOf(path: string): string | undefined {
  const numeric = path
    .split("/")
    .map((segment, i) => (i % 2 === 1 ? (ALPHABETIC_AI_ALIASES[segment.toLowerCase()] ?? segment) : segment))
    .join("/");
  try {
    return canonicalId(CANONICAL_DL_BASE + numeric);
  } catch {
    return undefined;
  }
}

/** Spellings of "linkset" a client may mean the link set by, and GS1 Digital Link 1.1's older value for it. */
const LINKSET_LOOKALIKE = /^(linkset|all)$/i;

/**
 * Whether and how a resolver request asks for a link set: "linkset" as spec 4.2 has it (linkType=linkset, once),
 * "media-type" by the Accept header alone, "other" by another linkType value meant for it (another casing,
 * GS1's older `all`, linkset given twice), undefined when it asks for none (a link type's redirect, the default
 * link), which RCV-LINKSET does not judge.
 */
function linksetAsk(
  r: ReceivedRequest,
  values: readonly string[],
): "linkset" | "media-type" | "other" | undefined {
  if (values.length === 1 && values[0] === "linkset") return "linkset";
  if (values.some((v) => LINKSET_LOOKALIKE.test(v))) return "other";
  const accept = (r.headers.get("accept") ?? []).join(",").toLowerCase();
  if (values.length === 0 && accept.includes(LINKSET_MEDIA_TYPE)) return "media-type";
  return undefined;
}

/** RCV-RESOLVER-PATH, RCV-LINKSET and RCV-CANONICAL-REBASE. */
export function checkResolver(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  key: string,
  task: string,
): void {
  const paths = checks.for("RCV-RESOLVER-PATH");
  const linkset = checks.for("RCV-LINKSET");
  const rebase = checks.for("RCV-CANONICAL-REBASE");
  const asked = requests.filter((r) => r.kind === "resolver");
  if (asked.length === 0) {
    paths.skip("the receiver sent no request to the resolver");
    linkset.skip("the receiver sent no request to the resolver");
    rebase.fail(
      `the receiver never asked the sender's resolver for ${task}, the identifier it was given under ${CANONICAL_DL_BASE}.`,
      {
        expected: `GET {resolver}${task.slice(CANONICAL_DL_BASE.length)}?linkType=linkset`,
        actual: "no request",
      },
    );
    return;
  }
  const wanted = canonicalId(task);
  let taskAsked: ReceivedRequest | undefined;
  let linksetProved = false;
  let pathProved = false;
  let linksetAsked = 0;
  for (const r of asked) {
    const what = described(r, key);
    const path = r.resolverPath ?? r.url.pathname;
    const problem = pathProblem(path);
    if (problem === undefined) {
      paths.pass(undefined, pathProved ? undefined : requestEvidence(r, key));
      pathProved = true;
    } else paths.fail(`${what}: ${problem}.`, requestEvidence(r, key));

    const values = linkTypesOf(r);
    const asks = linksetAsk(r, values);
    if (asks !== undefined) linksetAsked += 1;
    if (asks === "linkset") {
      linkset.pass(undefined, linksetProved ? undefined : requestEvidence(r, key));
      linksetProved = true;
    } else if (asks === "media-type") {
      linkset.warn(
        `${what} asks for the link set by its media type only; spec 4.2 asks for it with linkType=linkset.`,
        requestEvidence(r, key),
      );
    } else if (asks === "other") {
      linkset.fail(
        `${what} asks for the link set with linkType=${values.join(", linkType=")}; spec 4.2 asks for it with linkType=linkset, once.`,
        requestEvidence(r, key, { expected: "linkType=linkset", actual: values.map((v) => `linkType=${v}`) }),
      );
    }

    if (r.exchange.listener === "events") {
      rebase.fail(
        `${what} asks a Digital Link path at the query interface's server, not at the sender's resolver.`,
        requestEvidence(r, key),
      );
    } else if (taskAsked === undefined && identifierOf(path) === wanted) {
      taskAsked = r;
    }
  }
  if (linksetAsked === 0) {
    linkset.skip(
      "the receiver asked the resolver for no link set (it asked for link types, whose redirects it may follow)",
    );
  }
  if (taskAsked === undefined) {
    rebase.fail(
      `the receiver never asked the sender's resolver for ${task}, the identifier it was given under ${CANONICAL_DL_BASE}.`,
      { expected: `GET {resolver}${task.slice(CANONICAL_DL_BASE.length)}?linkType=linkset` },
    );
  } else {
    rebase.pass(`asked ${described(taskAsked, key)}`, requestEvidence(taskAsked, key));
  }
}
