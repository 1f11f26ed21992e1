// What every request carries (spec 5.2: the key in X-API-Key; spec 5.5: nowhere else, as a SHOULD) and how GET /events queries are
// written (spec 4.1 rules 1-2: one parameter per list, values joined by %7C; time bounds in UTC).
import { carriesSecret } from "../../src/http/redact.ts";
import { LIST_PARAMETERS, parseInstant, parseQueryString, TIME_PARAMETERS } from "../../src/model/index.ts";
import { described, type ReceivedRequest, requestEvidence } from "./requests.ts";
import type { ReceiverChecks } from "./verdicts.ts";

const UTC_STAMP = /^\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]00:00)$/;

/**
 * RCV-KEY-HEADER and RCV-KEY-NOT-IN-URL, for every request. A request without the key to a part of the sender that
 * does not use authentication (`keyUsed` false) is a warning: spec 4.2 asks the key of resolver requests "where
 * authentication is used", and the sender answered it. A wrong or repeated key is a failure wherever it goes. A
 * key in a URL warns.
 */
export function checkKey(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  key: string,
  keyUsed: (r: ReceivedRequest) => boolean = () => true,
): void {
  const header = checks.for("RCV-KEY-HEADER");
  const url = checks.for("RCV-KEY-NOT-IN-URL");
  if (requests.length === 0) {
    header.skip("the receiver sent no request");
    url.skip("the receiver sent no request");
    return;
  }
  let provedHeader = false;
  let provedUrl = false;
  for (const r of requests) {
    const values = r.headers.get("x-api-key") ?? [];
    const what = described(r, key);
    if (values.length === 0 && !keyUsed(r)) {
      header.warn(
        `${what} carries no X-API-Key header; the sender does not ask the key there (spec 4.2: "where authentication is used"), but spec 5 has every request carry it.`,
        requestEvidence(r, key),
      );
    } else if (values.length === 0) {
      header.fail(`${what} carries no X-API-Key header.`, requestEvidence(r, key));
    } else if (values.length > 1) {
      header.fail(`${what} carries the X-API-Key header ${values.length} times.`, requestEvidence(r, key));
    } else if (values[0] !== key) {
      header.fail(`${what} carries an X-API-Key other than the key given at setup.`, requestEvidence(r, key));
    } else {
      header.pass(undefined, provedHeader ? undefined : requestEvidence(r, key));
      provedHeader = true;
    }
    if (carriesSecret(r.exchange.rawUrl, key)) {
      // A SHOULD (spec 5.5 fixes only where the key is placed, which RCV-KEY-HEADER holds): a key in a URL is
      // written into logs and histories on the way, so it warns.
      url.warn(
        `${what} carries the API key in its URL, where proxies and logs keep it; spec 5 places it in the X-API-Key header.`,
        requestEvidence(r, key),
      );
    } else {
      url.pass(undefined, provedUrl ? undefined : requestEvidence(r, key));
      provedUrl = true;
    }
  }
}

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

/** RCV-PIPE-JOINED, RCV-NO-REPEATED-KEY and RCV-TIME-UTC, for every GET /events. */
export function checkQueries(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  key: string,
): void {
  const pipe = checks.for("RCV-PIPE-JOINED");
  const repeated = checks.for("RCV-NO-REPEATED-KEY");
  const time = checks.for("RCV-TIME-UTC");
  const queries = requests.filter((r) => r.kind === "events");
  if (queries.length === 0) {
    for (const c of [pipe, repeated, time]) c.skip("the receiver sent no GET /events");
    return;
  }
  let joined = 0;
  let bounds = 0;
  let unrepeated = 0;
  for (const r of queries) {
    const what = described(r, key);
    const pairs = rawPairs(r.rawQuery);
    for (const { key: name, rawValue } of pairs) {
      if (!(LIST_PARAMETERS as readonly string[]).includes(name)) continue;
      if (rawValue.includes("|")) {
        pipe.fail(
          `${what} joins the values of ${name} with a raw "|" instead of %7C.`,
          requestEvidence(r, key, { expected: "%7C between values", actual: "|" }),
        );
      } else if (/%7C/i.test(rawValue)) {
        pipe.pass(undefined, joined === 0 ? requestEvidence(r, key) : undefined);
        joined += 1;
      }
    }
    const parsed = parseQueryString(r.rawQuery);
    if (parsed.repeated.length > 0) {
      repeated.fail(
        `${what} repeats ${parsed.repeated.join(", ")}; send each parameter once, its values joined by %7C.`,
        requestEvidence(r, key, { expected: "each key once", actual: parsed.repeated }),
      );
    } else {
      repeated.pass(undefined, unrepeated === 0 ? requestEvidence(r, key) : undefined);
      unrepeated += 1;
    }
    for (const p of TIME_PARAMETERS) {
      if (!pairs.some((pair) => pair.key === p)) continue;
      bounds += 1;
      const problem = timeProblem(parsed.query[p] ?? "");
      if (problem === undefined) time.pass(undefined, bounds === 1 ? requestEvidence(r, key) : undefined);
      else time.fail(`${what}: ${p} ${problem}.`, requestEvidence(r, key));
    }
  }
  if (joined === 0) pipe.skip("no GET /events carried more than one value in a list parameter");
  if (bounds === 0) time.skip("the receiver sent no time bound");
}
