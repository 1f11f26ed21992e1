// Evidence made from an exchange, as every verdict that rests on one carries it.
import type { ExchangeRecord } from "../http/record.ts";
import type { Evidence } from "./types.ts";

/** Evidence from one exchange: request, response excerpt and the curl line (the key never in it). */
export function exchangeEvidence(x: ExchangeRecord | undefined, extra: Partial<Evidence> = {}): Evidence {
  if (!x) return { ...extra };
  const ev: Evidence = { request: x.request, curl: x.curl, ...extra };
  if (x.response) ev.response = x.response;
  if (x.keyWithheld === true) ev.keyWithheld = true;
  return ev;
}
