// What every request carries (spec 5.2: the key in X-API-Key; spec 5.5: nowhere else, as a SHOULD) and how GET /events queries are
// written (spec 4.1 rules 1-2: one parameter per list, values joined by %7C; time bounds in UTC).
import type { RunContext } from "../../src/engine/context.ts";
import { type Checks, requirementTest } from "../../src/engine/suite.ts";
import { carriesSecret } from "../../src/http/redact.ts";
import { LIST_PARAMETERS, parseInstant, parseQueryString, TIME_PARAMETERS } from "../../src/model/index.ts";
import { sessionOf } from "./support/recording.ts";
import { described, type ReceivedRequest, requestEvidence } from "./support/requests.ts";

const UTC_STAMP = /^\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]00:00)$/;

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
    const values = r.headers.get("x-api-key") ?? [];
    const what = described(r, key);
    if (values.length === 0 && !keyUsed(r)) {
      checks.warn(
        `${what} carries no X-API-Key header; the sender does not ask the key there (spec 4.2: "where authentication is used"), but spec 5 has every request carry it.`,
        requestEvidence(r, key),
      );
    } else if (values.length === 0) {
      checks.fail(`${what} carries no X-API-Key header.`, requestEvidence(r, key));
    } else if (values.length > 1) {
      checks.fail(`${what} carries the X-API-Key header ${values.length} times.`, requestEvidence(r, key));
    } else if (values[0] !== key) {
      checks.fail(`${what} carries an X-API-Key other than the key given at setup.`, requestEvidence(r, key));
    } else {
      checks.pass(undefined, proved ? undefined : requestEvidence(r, key));
      proved = true;
    }
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

/** The raw key=value pairs of a query string, keys decoded. */
function rawPairs(rawQuery: string): { key: string; rawValue: string }[] {
  return rawQuery
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, " "));
      } catch {
        // A key with a broken escape is kept as written; it is no parameter of spec 4.1 either way.
      }
      return { key, rawValue: eq < 0 ? "" : pair.slice(eq + 1) };
    });
}

/** Why a time bound as the sender reads it is not an xsd:dateTimeStamp in UTC, or undefined when it is. */
function timeProblem(value: string): string | undefined {
  if (value.includes(" ")) {
    return `"${value}" holds a space: a "+" of an offset was sent unencoded, and a server reads it as a space; encode it as %2B, or write the time in UTC with Z`;
  }
  try {
    parseInstant(value);
  } catch (error) {
    return `"${value}" is not an xsd:dateTimeStamp (${(error as Error).message})`;
  }
  if (!UTC_STAMP.test(value)) return `"${value}" is not in UTC; write it with Z, like 2024-05-01T10:00:00Z`;
  return undefined;
}

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
    for (const { key: name, rawValue } of rawPairs(r.rawQuery)) {
      if (!(LIST_PARAMETERS as readonly string[]).includes(name)) continue;
      if (rawValue.includes("|")) {
        checks.fail(
          `${described(r, key)} joins the values of ${name} with a raw "|" instead of %7C.`,
          requestEvidence(r, key, { expected: "%7C between values", actual: "|" }),
        );
      } else if (/%7C/i.test(rawValue)) {
        checks.pass(undefined, joined === 0 ? requestEvidence(r, key) : undefined);
        joined += 1;
      }
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
    const parsed = parseQueryString(r.rawQuery);
    const repeated = parsed.repeated.filter((k) => !parsed.unknown.includes(k));
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
    const pairs = rawPairs(r.rawQuery);
    const parsed = parseQueryString(r.rawQuery);
    for (const p of TIME_PARAMETERS) {
      if (!pairs.some((pair) => pair.key === p)) continue;
      bounds += 1;
      const problem = timeProblem(parsed.query[p] ?? "");
      if (problem === undefined) checks.pass(undefined, bounds === 1 ? requestEvidence(r, key) : undefined);
      else checks.fail(`${described(r, key)}: ${p} ${problem}.`, requestEvidence(r, key));
    }
  }
  if (bounds === 0) checks.skip("the receiver sent no time bound");
});
