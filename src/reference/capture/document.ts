// What a capture request carries: an EPCISDocument (or an EPCISQueryDocument, which the binding says a capture
// interface should take too) whose event list holds the events to capture.
import type { EpcisEvent } from "../../model/index.ts";

export type CaptureBody = { ok: true; events: EpcisEvent[] } | { ok: false; detail: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The events of a capture body, or why it is not one: each event must be an object with a string type. */
export function readCaptureBody(text: string): CaptureBody {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, detail: `The body is not JSON (${(err as Error).message}); send an EPCISDocument.` };
  }
  if (!isObject(doc) || (doc.type !== "EPCISDocument" && doc.type !== "EPCISQueryDocument")) {
    return {
      ok: false,
      detail: "The body is not an EPCISDocument or EPCISQueryDocument; send an EPCISDocument.",
    };
  }
  const body = isObject(doc.epcisBody) ? doc.epcisBody : undefined;
  const results = isObject(body?.queryResults) ? body.queryResults : undefined;
  const resultsBody = isObject(results?.resultsBody) ? results.resultsBody : undefined;
  const list = doc.type === "EPCISDocument" ? body?.eventList : resultsBody?.eventList;
  if (!Array.isArray(list)) {
    return {
      ok: false,
      detail: "The document has no event list (epcisBody.eventList); put the events there.",
    };
  }
  const bad = list.findIndex((e) => !isObject(e) || typeof e.type !== "string");
  if (bad >= 0) {
    return {
      ok: false,
      detail: `Event ${bad + 1} of the event list is not an EPCIS event (an object with a type).`,
    };
  }
  return { ok: true, events: list as EpcisEvent[] };
}
