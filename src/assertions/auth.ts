// How a sender's X-API-Key check is read from its answers (spec 5), written once for the auth suites. A verdict
// rests on an answer the target gave: a 2xx (or a 413, spec 7) shows that a request got past the key check, a 4xx
// that it was refused. No answer, a redirect left unfollowed or a 5xx shows neither, so it decides nothing: such an
// exchange is an error with its evidence, never a pass.
import type { Evidence } from "../engine/types.ts";

/** One request sent to put the key check to the test. */
export interface Probe {
  /** The status of the answer; undefined when no HTTP answer came. */
  status?: number;
  /** Why no answer came. */
  error?: string;
  evidence: Evidence;
}

/** An endpoint and the two requests, with the valid key and without any, that tell whether it checks keys. */
export interface ProbedEndpoint {
  name: string;
  /** Whether a status shows that the request got past the key check. */
  accepted(status: number): boolean;
  withKey: Probe;
  withoutKey: Probe;
}

/**
 * guarded: answered with the key and refused without it; open: answered without a key (spec 5.6); unjudged: one
 * of the two requests showed neither, and `broken` says whether because an exchange failed (no answer, a 5xx)
 * rather than because the valid key itself was refused.
 */
export type Access =
  | { kind: "guarded" }
  | { kind: "open" }
  | { kind: "unjudged"; reason: string; evidence: Evidence; broken: boolean };

export interface AuthVerdict {
  status: "pass" | "fail" | "skip" | "error";
  reason: string;
  evidence?: Evidence;
}

export const SPEC_5_5 = 'spec 5.5: "The sender alone generates, manages and checks the keys."';
export const SPEC_5_6 = 'spec 5.6: "Some cases need no authentication."';

/**
 * A refusal of the request: a 4xx, but not 429, which asks to be asked later and says nothing of the key (spec 5
 * shows no status for a refused key; a 429 that outlasts the retry budget leaves the probe undecided).
 */
const is4xx = (status: number | undefined): status is number =>
  status !== undefined && status >= 400 && status <= 499 && status !== 429;

/** "was answered 500", "got no answer (timeout)": what a probe came back with, for a reason. */
export function answered(p: Probe): string {
  return p.status === undefined ? `got no answer (${p.error ?? "no response"})` : `was answered ${p.status}`;
}

function passing(p: Probe, accepted: (status: number) => boolean): p is Probe & { status: number } {
  return p.status !== undefined && accepted(p.status);
}

export function accessOf(e: ProbedEndpoint): Access {
  const keyed = e.withKey;
  if (!passing(keyed, e.accepted)) {
    return {
      kind: "unjudged",
      reason: `${e.name} with the valid key ${answered(keyed)}`,
      evidence: keyed.evidence,
      broken: !is4xx(keyed.status),
    };
  }
  const bare = e.withoutKey;
  if (passing(bare, e.accepted)) return { kind: "open" };
  if (is4xx(bare.status)) return { kind: "guarded" };
  return {
    kind: "unjudged",
    reason: `${e.name} without a key ${answered(bare)}, which neither answers nor refuses it`,
    evidence: bare.evidence,
    broken: true,
  };
}

/** The verdict of a check that cannot be judged: an error where an exchange failed, else a skip. */
export function unjudgedVerdict(access: Extract<Access, { kind: "unjudged" }>): AuthVerdict {
  return access.broken
    ? { status: "error", reason: `not judged: ${access.reason}`, evidence: access.evidence }
    : { status: "skip", reason: `not judged: ${access.reason}` };
}

/**
 * AUTH-MISSING (SHOULD): GET /events refuses a request without a key. One that answers it needs no
 * authentication, which spec 5.6 and 5.7 allow: a warning that names the freedom, so that an endpoint left open by
 * mistake is seen.
 */
export function missingKeyVerdict(e: ProbedEndpoint, access: Access = accessOf(e)): AuthVerdict {
  const bare = e.withoutKey;
  if (access.kind === "unjudged") return unjudgedVerdict(access);
  if (access.kind === "guarded") {
    return {
      status: "pass",
      reason: `${e.name} without a key was refused with ${bare.status}`,
      evidence: bare.evidence,
    };
  }
  return {
    status: "fail",
    reason: `${e.name} ${answered(bare)} without a key: it needs no authentication, which is allowed (${SPEC_5_6}), and anyone who reaches it reads what it serves`,
    evidence: { ...bare.evidence, expected: "a refusal (4xx) where keys are used", actual: bare.status },
  };
}

/**
 * AUTH-WRONG (MUST): where a request without a key is refused, a key the sender never issued is refused as well,
 * or the sender asks for a key it does not check (spec 5.5). Where no key is needed (spec 5.6) a wrong one need not
 * be refused, and nothing fails whichever way the sender treats it.
 */
export function wrongKeyVerdict(e: ProbedEndpoint, wrong: Probe, access: Access = accessOf(e)): AuthVerdict {
  if (access.kind === "unjudged") return unjudgedVerdict(access);
  if (access.kind === "open") {
    const seen = is4xx(wrong.status) ? `; it refused one with ${wrong.status}` : "";
    return {
      status: "skip",
      reason: `${e.name} answers without a key, so a wrong key need not be refused (${SPEC_5_6})${seen}`,
    };
  }
  if (is4xx(wrong.status)) {
    return {
      status: "pass",
      reason: `${e.name} with a wrong key was refused with ${wrong.status}`,
      evidence: wrong.evidence,
    };
  }
  if (passing(wrong, e.accepted)) {
    return {
      status: "fail",
      reason: `${e.name} refuses a request without a key but answered ${wrong.status} to a key it never issued: it asks for a key it does not check (${SPEC_5_5})`,
      evidence: { ...wrong.evidence, expected: "a refusal (4xx)", actual: wrong.status },
    };
  }
  return {
    status: "error",
    reason: `not judged: ${e.name} with a wrong key ${answered(wrong)}, which neither answers nor refuses it`,
    evidence: wrong.evidence,
  };
}

/**
 * AUTH-STATUS (SHOULD): a request refused for its key is answered 401 or 403. Only a probe refused (4xx) by an
 * endpoint that answered the valid key is judged; undefined for any other.
 */
export function refusalStatusVerdict(
  e: ProbedEndpoint,
  how: string,
  p: Probe,
  access: Access = accessOf(e),
): AuthVerdict | undefined {
  if (access.kind === "unjudged" || !is4xx(p.status)) return undefined;
  if (p.status === 401 || p.status === 403) {
    return { status: "pass", reason: `${e.name} ${how} was refused with ${p.status}`, evidence: p.evidence };
  }
  return {
    status: "fail",
    reason: `${e.name} ${how} was refused with ${p.status}, not 401 or 403`,
    evidence: { ...p.evidence, expected: [401, 403], actual: p.status },
  };
}

/** AUTH-HEADER (MUST): the valid key is answered in a header of any casing (RFC 9110 5.1). */
export function headerCasingVerdict(
  e: Pick<ProbedEndpoint, "name" | "accepted">,
  headerName: string,
  p: Probe,
): AuthVerdict {
  const about = `${e.name} with the valid key in a header named ${headerName}`;
  if (passing(p, e.accepted))
    return { status: "pass", reason: `${about} was answered ${p.status}`, evidence: p.evidence };
  if (is4xx(p.status)) {
    return {
      status: "fail",
      reason: `${about} was refused with ${p.status}; if every casing is refused, check the key given with --api-key`,
      evidence: { ...p.evidence, expected: "the request answered", actual: p.status },
    };
  }
  return { status: "error", reason: `not judged: ${about} ${answered(p)}`, evidence: p.evidence };
}

/**
 * AUTH-QUERY-STRING (SHOULD): on an endpoint that refuses a request without a key, the valid key given as a query
 * parameter instead of the header is refused too, since the standard fixes the header (spec 5.3, 5.5).
 */
export function queryStringKeyVerdict(
  e: Pick<ProbedEndpoint, "name" | "accepted">,
  parameter: string,
  p: Probe,
): AuthVerdict {
  const about = `${e.name} with the key in the query parameter ${parameter} and no X-API-Key header`;
  if (is4xx(p.status))
    return { status: "pass", reason: `${about} was refused with ${p.status}`, evidence: p.evidence };
  if (passing(p, e.accepted)) {
    return {
      status: "fail",
      reason: `${about} was answered ${p.status}: the key belongs in the X-API-Key header`,
      evidence: {
        ...p.evidence,
        expected: "a refusal: the key belongs in the X-API-Key header",
        actual: p.status,
      },
    };
  }
  return { status: "error", reason: `not judged: ${about} ${answered(p)}`, evidence: p.evidence };
}

/**
 * AUTH-PUBLIC (MAY), in a run without a key: GET /events answers without one (spec 5.6, 5.7). A refusal says
 * plainly that the target requires a key, so that the user passes it.
 */
export function publicWithoutKeyVerdict(
  e: Pick<ProbedEndpoint, "name" | "accepted">,
  bare: Probe,
): AuthVerdict {
  if (passing(bare, e.accepted)) {
    return {
      status: "pass",
      reason: `${e.name} was answered ${bare.status} without a key: the target serves without authentication`,
      evidence: bare.evidence,
    };
  }
  if (is4xx(bare.status)) {
    return {
      status: "fail",
      reason: `${e.name} was answered ${bare.status} without a key: the target requires one; pass it with --api-key or TRACECHECK_API_KEY`,
      evidence: { ...bare.evidence, expected: "an answer without a key", actual: bare.status },
    };
  }
  return {
    status: "error",
    reason: `not judged: ${e.name} without a key ${answered(bare)}`,
    evidence: bare.evidence,
  };
}

/** AUTH-PUBLIC (MAY), in a run with a key: whether GET /events uses the freedom to need none. */
export function publicWithKeyVerdict(e: ProbedEndpoint, access: Access = accessOf(e)): AuthVerdict {
  if (access.kind === "unjudged") return unjudgedVerdict(access);
  if (access.kind === "open") {
    return {
      status: "pass",
      reason: `${e.name} was answered ${e.withoutKey.status} without a key: it serves without authentication (${SPEC_5_6})`,
      evidence: e.withoutKey.evidence,
    };
  }
  return {
    status: "skip",
    reason: `${e.name} refuses a request without a key: the sender checks keys there, so it does not use this freedom`,
  };
}
