// What every request carries (spec 5.2: the key in X-API-Key; spec 5.5: nowhere else, as a SHOULD) and how GET /events queries are
// written (spec 4.1 rules 1-2: one parameter per list, values joined by %7C; time bounds in UTC).
import type { RunContext } from "../../src/engine/context.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import { carriesSecret } from "../../src/http/redact.ts";
import { sessionOf } from "./support/recording.ts";
import { described, type ReceivedRequest, requestEvidence } from "./support/requests.ts";
import {
  keyHeaderJudgment,
  pipeJudgments,
  repeatedKeys,
  timeJudgments,
  type WireJudgment,
} from "./support/wire.ts";

/** Records one judgment of a request; a pass carries the request as its proof when `proof` is set. */
function record(checks: Checks, j: WireJudgment, r: ReceivedRequest, key: string, proof: boolean): void {
  const extra: { expected?: unknown; actual?: unknown } = {};
  if (j.expected !== undefined) extra.expected = j.expected;
  if (j.actual !== undefined) extra.actual = j.actual;
  if (j.status === "pass") checks.pass(undefined, proof ? requestEvidence(r, key) : undefined);
  else if (j.status === "warn") checks.warn(j.reason ?? "", requestEvidence(r, key, extra));
  else checks.fail(j.reason ?? "", requestEvidence(r, key, extra));
}

/**
 * RCV-KEY-HEADER, for every request but a CORS preflight. A request without the key to a part of the sender that does not use
 * authentication is a warning: spec 4.2 asks the key of resolver requests "where authentication is used", and the
 * sender answered it. A wrong or repeated key is a failure wherever it goes.
 */
requirementTest("RCV-KEY-HEADER", "Every request carries the key in X-API-Key", (checks, ctx) => {
  const { requests: all, key, keyUsed } = sessionOf(ctx);
  // A CORS preflight (OPTIONS) is sent by the browser, which never puts a custom header such as X-API-Key on it
  // (Fetch standard, CORS-preflight request): the request it clears carries the key, and is judged.
  const requests = all.filter((r) => r.exchange.method.toUpperCase() !== "OPTIONS");
  if (requests.length === 0) return checks.skip("the receiver sent no request but CORS preflights");
  let proved = false;
  for (const r of requests) {
    const j = keyHeaderJudgment(r, key, keyUsed(r));
    record(checks, j, r, key, !proved);
    if (j.status === "pass") proved = true;
  }
});

/**
 * RCV-KEY-NOT-IN-URL, for every request: a SHOULD (spec 5.5 fixes only where the key is placed, which
 * RCV-KEY-HEADER holds). A key in a URL is written into logs and histories on the way, so it warns.
 */
requirementTest("RCV-KEY-NOT-IN-URL", "The key never travels in a URL", (checks, ctx) => {
  const { requests, key } = sessionOf(ctx);
  if (requests.length === 0) return checks.skip("the receiver sent no request");
  let proved = false;
  for (const r of requests) {
    if (carriesSecret(r.exchange.rawUrl, key)) {
      checks.warn(
        `${described(r, key)} carries the API key in its URL, where proxies and logs keep it; spec 5 places it in the X-API-Key header.`,
        requestEvidence(r, key),
      );
    } else {
      checks.pass(undefined, proved ? undefined : requestEvidence(r, key));
      proved = true;
    }
  }
});

/** The GET /events queries of the session, or undefined after recording the skip when there are none. */
function queriesOf(checks: Checks, ctx: RunContext): ReceivedRequest[] | undefined {
  const queries = sessionOf(ctx).requests.filter((r) => r.kind === "events");
  if (queries.length > 0) return queries;
  checks.skip("the receiver sent no GET /events");
  return undefined;
}

/** RCV-PIPE-JOINED, for every list parameter of every GET /events. */
requirementTest("RCV-PIPE-JOINED", "Several values of a list parameter are joined by %7C", (checks, ctx) => {
  const queries = queriesOf(checks, ctx);
  if (queries === undefined) return;
  const { key } = sessionOf(ctx);
  let joined = 0;
  for (const r of queries) {
    for (const j of pipeJudgments(r, key)) {
      record(checks, j, r, key, joined === 0);
      if (j.status === "pass") joined += 1;
    }
  }
  if (joined === 0) checks.skip("no GET /events carried more than one value in a list parameter");
});

/**
 * RCV-NO-REPEATED-KEY, for every GET /events: rule 2 is of the nine parameters of spec 4.1; a key beyond them (paging,
 * a vendor's own) is "not shown", and how it is written is the receiver's business.
 */
requirementTest("RCV-NO-REPEATED-KEY", "No query parameter is repeated", (checks, ctx) => {
  const queries = queriesOf(checks, ctx);
  if (queries === undefined) return;
  const { key } = sessionOf(ctx);
  let unrepeated = 0;
  for (const r of queries) {
    const repeated = repeatedKeys(r);
    if (repeated.length > 0) {
      checks.fail(
        `${described(r, key)} repeats ${repeated.join(", ")}; send each parameter once, its values joined by %7C.`,
        requestEvidence(r, key, { expected: "each key once", actual: repeated }),
      );
    } else {
      checks.pass(undefined, unrepeated === 0 ? requestEvidence(r, key) : undefined);
      unrepeated += 1;
    }
  }
});

/** RCV-TIME-UTC, for every time bound of every GET /events. */
requirementTest("RCV-TIME-UTC", "Time bounds are xsd:dateTimeStamp values in UTC", (checks, ctx) => {
  const queries = queriesOf(checks, ctx);
  if (queries === undefined) return;
  const { key } = sessionOf(ctx);
  let bounds = 0;
  for (const r of queries) {
    for (const j of timeJudgments(r, key)) {
      bounds += 1;
      record(checks, j, r, key, bounds === 1);
    }
  }
  if (bounds === 0) checks.skip("the receiver sent no time bound");
});
