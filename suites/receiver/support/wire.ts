// How one request is written on the wire, judged once: the key in X-API-Key (spec 5.2), list values joined by
// %7C (spec 4.1 rule 1), no key of spec 4.1 repeated (rule 2), time bounds in UTC (the parameter table). The wire
// suite records these judgments for every request; the checks that meet a request the sender refused read which
// of them it failed, so that one defect fails once.
import {
  type EventQuery,
  LIST_PARAMETERS,
  type ListParameter,
  parseInstant,
  parseQueryString,
  TIME_PARAMETERS,
} from "../../../src/model/index.ts";
import { described, type ReceivedRequest } from "./requests.ts";

const UTC_STAMP = /^\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]00:00)$/;

/** One judgment of a request: a pass, or a finding with its reason and what was expected of it. */
export interface WireJudgment {
  status: "pass" | "warn" | "fail";
  reason?: string;
  expected?: unknown;
  actual?: unknown;
}

const PASS: WireJudgment = { status: "pass" };

/**
 * RCV-KEY-HEADER of one request. A request without the key to a part of the sender that does not use
 * authentication warns (spec 4.2: "where authentication is used"); a wrong or repeated key fails anywhere.
 */
export function keyHeaderJudgment(r: ReceivedRequest, key: string, keyUsed: boolean): WireJudgment {
  const values = r.headers.get("x-api-key") ?? [];
  const what = described(r, key);
  if (values.length === 0 && !keyUsed) {
    return {
      status: "warn",
      reason: `${what} carries no X-API-Key header; the sender does not ask the key there (spec 4.2: "where authentication is used"), but spec 5 has every request carry it.`,
    };
  }
  if (values.length === 0) return { status: "fail", reason: `${what} carries no X-API-Key header.` };
  if (values.length > 1) {
    return { status: "fail", reason: `${what} carries the X-API-Key header ${values.length} times.` };
  }
  if (values[0] !== key) {
    return { status: "fail", reason: `${what} carries an X-API-Key other than the key given at setup.` };
  }
  return PASS;
}

/** The raw key=value pairs of a query string, keys decoded. */
export function rawPairs(rawQuery: string): { key: string; rawValue: string }[] {
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

/** An absolute URI with a scheme a list value of spec 4.1 is written in: urn:, http: or https:. */
const LIST_URI = /^(?:urn:|https?:)\S/i;

/** A raw value decoded as a form component, or undefined when an escape is broken. */
function decoded(rawValue: string): string | undefined {
  try {
    return decodeURIComponent(rawValue.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * Whether a list parameter's value, decoded, carries several values joined by a comma: one of its "|"-separated
 * parts splits on "," into two or more parts that are each an absolute URI. A single URI that merely holds a
 * comma (a serial such as A,B) does not split so.
 */
function commaJoined(rawValue: string): boolean {
  const value = decoded(rawValue);
  if (value === undefined) return false;
  return value.split("|").some((part) => {
    const pieces = part.split(",");
    return pieces.length >= 2 && pieces.every((piece) => LIST_URI.test(piece.trim()));
  });
}

/**
 * RCV-PIPE-JOINED of one GET /events: a judgment for each list parameter that carries several values (a pass for
 * values joined by %7C; a failure for a raw "|", and for values joined by a comma, raw or encoded, which spec 4.1
 * rule 1 does not join a multi-valued parameter with); none for a parameter with one value.
 */
export function pipeJudgments(r: ReceivedRequest, key: string): WireJudgment[] {
  const out: WireJudgment[] = [];
  for (const { key: name, rawValue } of rawPairs(r.rawQuery)) {
    if (!(LIST_PARAMETERS as readonly string[]).includes(name)) continue;
    if (rawValue.includes("|")) {
      out.push({
        status: "fail",
        reason: `${described(r, key)} joins the values of ${name} with a raw "|" instead of %7C.`,
        expected: "%7C between values",
        actual: "|",
      });
    } else if (commaJoined(rawValue)) {
      out.push({
        status: "fail",
        reason: `${described(r, key)} joins the values of ${name} with a comma; spec 4.1 joins them with the pipe, encoded as %7C.`,
        expected: "%7C between values",
        actual: ",",
      });
    } else if (/%7C/i.test(rawValue)) out.push(PASS);
  }
  return out;
}

/** RCV-NO-REPEATED-KEY of one GET /events: the parameters of spec 4.1 it names more than once (rule 2). */
export function repeatedKeys(r: ReceivedRequest): string[] {
  const parsed = parseQueryString(r.rawQuery);
  return parsed.repeated.filter((k) => !parsed.unknown.includes(k));
}

/** Why a time bound as the sender reads it is not an xsd:dateTimeStamp in UTC, or undefined when it is. */
export function timeProblem(value: string): string | undefined {
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

/** RCV-TIME-UTC of one GET /events: a judgment for each time bound it sends. */
export function timeJudgments(r: ReceivedRequest, key: string): WireJudgment[] {
  const pairs = rawPairs(r.rawQuery);
  const parsed = parseQueryString(r.rawQuery);
  return TIME_PARAMETERS.filter((p) => pairs.some((pair) => pair.key === p)).map((p) => {
    const problem = timeProblem(parsed.query[p] ?? "");
    return problem === undefined
      ? PASS
      : { status: "fail", reason: `${described(r, key)}: ${p} ${problem}.` };
  });
}

/** The wire requirements whose check fails this very request, in the order the wire suite judges them. */
export function wireFailures(r: ReceivedRequest, key: string, keyUsed: boolean): string[] {
  const failed: string[] = [];
  const fails = (judgments: readonly WireJudgment[]) => judgments.some((j) => j.status === "fail");
  if (r.exchange.method.toUpperCase() !== "OPTIONS" && fails([keyHeaderJudgment(r, key, keyUsed)])) {
    failed.push("RCV-KEY-HEADER");
  }
  if (r.kind !== "events") return failed;
  if (fails(pipeJudgments(r, key))) failed.push("RCV-PIPE-JOINED");
  if (repeatedKeys(r).length > 0) failed.push("RCV-NO-REPEATED-KEY");
  if (fails(timeJudgments(r, key))) failed.push("RCV-TIME-UTC");
  return failed;
}

/**
 * The query a GET /events meant, read past its wire defects: the values of a list parameter joined by a comma, or
 * by a raw "|", or spread over repeats of its key, as the values they are; a time bound that is no instant in UTC
 * left out. What it selects is what the receiver asked for, whatever the sender made of how it was written.
 */
export function meantQuery(r: ReceivedRequest): EventQuery {
  const query = parseQueryString(r.rawQuery).query;
  const lists = new Map<ListParameter, string[]>();
  for (const { key: name, rawValue } of rawPairs(r.rawQuery)) {
    if (!(LIST_PARAMETERS as readonly string[]).includes(name)) continue;
    const value = decoded(rawValue);
    if (value === undefined) continue;
    const values = value
      .split("|")
      .flatMap((part) => (commaJoined(encodeURIComponent(part)) ? part.split(",") : [part]))
      .map((v) => v.trim())
      .filter((v) => v !== "");
    lists.set(name as ListParameter, [...(lists.get(name as ListParameter) ?? []), ...values]);
  }
  for (const [name, values] of lists) query[name] = values;
  for (const p of TIME_PARAMETERS) {
    const bound = query[p];
    if (bound !== undefined && timeProblem(bound) !== undefined) delete query[p];
  }
  return query;
}
