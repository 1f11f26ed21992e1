// The answer a resolver gives to a path written with alphabetic application identifiers (/gtin/…), which spec 4.2
// ("The alphabetic form (for example `gtin`) is not allowed") and spec 9 ("numeric application identifiers only,
// alphabetic forms are not allowed") forbid: RES-NUMERIC-ONLY.

import type { ExchangeRecord } from "../../../src/http/record.ts";
import type { HttpResult } from "../../../src/http/result.ts";
import { canonicalId, isDigitalLink } from "../../../src/model/index.ts";
import { isLinksetBody } from "../../../src/target/resolver.ts";

/** What the resolver's answer to an alphabetic path shows (spec 4.2: "The alphabetic form ... is not allowed"). */
export interface AlphabeticVerdict {
  status: "pass" | "warn" | "fail";
  note: string;
  exchange?: ExchangeRecord;
}

function isLinkset(result: HttpResult): boolean {
  if (result.status < 200 || result.status > 299) return false;
  try {
    return isLinksetBody(result.json());
  } catch {
    return false;
  }
}

/**
 * Judges the answer to an alphabetic path whose numeric form is `numeric` (a canonical Digital Link URI), its
 * redirects followed. A link set answered at the alphabetic path treats the forbidden form as allowed: a failure
 * (RES-NUMERIC-ONLY, a SHOULD, makes it a warning). A redirect to the numeric path serves the client without
 * answering the form as its own: a warning, as is any other answer but a refusal, since the spec shows no status.
 * A 4xx refuses the form, also where a redirect (to the resolver's own backend, say) led to it: a pass.
 */
export function judgeAlphabetic(
  path: string,
  numeric: string,
  answer: { result?: HttpResult; exchange?: ExchangeRecord; error?: string },
): AlphabeticVerdict {
  const { result } = answer;
  if (result === undefined) {
    // A failure without an answer, which the check's verdict turns into an undecided error (suite.ts).
    const unanswered: AlphabeticVerdict = { status: "fail", note: `${path} got no answer: ${answer.error}` };
    if (answer.exchange !== undefined) unanswered.exchange = answer.exchange;
    return unanswered;
  }
  const first = result.exchanges[0] ?? result.exchange;
  const firstStatus = first.response?.status ?? result.status;
  const refused = result.status >= 400 && result.status <= 499;
  if (result.exchanges.length > 1 && firstStatus >= 300 && firstStatus <= 399 && !refused) {
    const location = first.response?.headers.location ?? result.url;
    const toNumeric = sameIdentifierPath(result.url, numeric);
    return {
      status: "warn",
      note: toNumeric
        ? `the alphabetic path ${path} was redirected (${firstStatus}) to the numeric path ${location} instead of being refused with a 4xx`
        : `the alphabetic path ${path} was redirected (${firstStatus}) to ${location} instead of being refused with a 4xx`,
      exchange: first,
    };
  }
  if (isLinkset(result)) {
    return {
      status: "fail",
      note: `the alphabetic path ${path} was answered with a link set, as if it were numeric`,
      exchange: result.exchange,
    };
  }
  if (refused) {
    return { status: "pass", note: `${path} was refused with ${result.status}`, exchange: result.exchange };
  }
  return {
    status: "warn",
    note: `the alphabetic path ${path} was answered ${result.status} without a link set, instead of being refused with a 4xx`,
    exchange: result.exchange,
  };
}

/** Whether a URL's path names the identifier of the canonical URI `numeric`, under any base. */
function sameIdentifierPath(url: string, numeric: string): boolean {
  try {
    const u = new URL(url);
    return isDigitalLink(`${u.origin}${u.pathname}`) && canonicalId(`${u.origin}${u.pathname}`) === numeric;
  } catch {
    return false;
  }
}
