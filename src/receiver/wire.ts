// How the reference receiver writes what it sends: GET /events query strings (spec 4.1 rules 1-2: one parameter
// per list, values joined by %7C; time bounds in UTC) and resolver paths (spec 4.2: numeric application
// identifiers). The named client faults bend exactly one of these rules each.
import {
  alphabeticNameOf,
  type DigitalLinkElement,
  type EventQuery,
  formatDigitalLink,
  formatInstant,
  type Instant,
  LIST_PARAMETERS,
  QUERY_PARAMETERS,
} from "../model/index.ts";

/** The offset the local-time fault writes its bounds at. */
const LOCAL_OFFSET = "+02:00";

/** The query string of a GET /events query, without "?". */
export function queryString(q: EventQuery, faults: ReadonlySet<string>): string {
  const pairs: string[] = [];
  for (const key of QUERY_PARAMETERS) {
    const value = q[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      pairs.push(`${key}=${encodeURIComponent(value)}`);
      continue;
    }
    const encoded = value.map(encodeURIComponent);
    if (faults.has("repeat-key")) pairs.push(...encoded.map((v) => `${key}=${v}`));
    else pairs.push(`${key}=${encoded.join(faults.has("raw-pipe") ? "|" : "%7C")}`);
  }
  return pairs.join("&");
}

/** The list parameters a query carries. */
export function listParameters(q: EventQuery): (typeof LIST_PARAMETERS)[number][] {
  return LIST_PARAMETERS.filter((p) => q[p] !== undefined);
}

/** An instant in nanoseconds since the epoch as the receiver writes a time bound: UTC, unless the fault says not. */
export function timeBound(nanoseconds: bigint, faults: ReadonlySet<string>): string {
  const instant: Instant = {
    epochSeconds: nanoseconds / 1_000_000_000n,
    fraction: (nanoseconds % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, ""),
  };
  return formatInstant(instant, { offset: faults.has("local-time") ? LOCAL_OFFSET : "Z" });
}

/** Nanoseconds since the epoch of an instant. */
export function nanosecondsOf(i: Instant): bigint {
  return i.epochSeconds * 1_000_000_000n + BigInt(i.fraction.padEnd(9, "0").slice(0, 9) || "0");
}

/**
 * The resolver URL of an identifier's link set (spec 4.2): the identifier's path under the sender's resolver, with
 * linkType=linkset, or with another link type (gs1:epcis, gs1:masterData) to be redirected to that link.
 */
export function resolverUrl(
  resolverBase: string,
  elements: readonly DigitalLinkElement[],
  faults: ReadonlySet<string>,
  linkType = "linkset",
): string {
  let path = formatDigitalLink(resolverBase, [...elements]);
  if (faults.has("alphabetic-ai")) {
    const numeric = formatDigitalLink("", [...elements]).split("/");
    const named = numeric.map((segment, i) =>
      i % 2 === 1 ? (alphabeticNameOf(segment) ?? segment) : segment,
    );
    path = resolverBase.replace(/\/+$/, "") + named.join("/");
  }
  return `${path}?linkType=${linkType}`;
}
