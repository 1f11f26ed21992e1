import { EPCIS_CONTEXT_URL, type EpcisEvent, EXTENSION_PREFIXES } from "../../model/index.ts";

export const EPCIS_CONTEXT = EPCIS_CONTEXT_URL;

// Extension prefixes our events use. cbvmda is also in the EPCIS context; declaring it again with the same IRI is
// allowed for its protected terms and keeps the document readable on its own.
// "example" is the namespace of the extension field a sender configured as shuffled adds (answer-shape.ts).
const KNOWN_PREFIXES: Readonly<Record<string, string>> = {
  ...EXTENSION_PREFIXES,
  example: "https://example.com/epcis-extension/",
};

/**
 * What the reference knows of each event it has served: its JSON text and the extension prefixes it uses. Stored
 * events are never changed once loaded (an answer that must differ is shaped from a copy, answer-shape.ts), so
 * both are computed once per event rather than once per answer; a copy is a new object and is read afresh.
 */
const readings = new WeakMap<EpcisEvent, { json: string; prefixes: readonly string[] }>();

function readingOf(event: EpcisEvent): { json: string; prefixes: readonly string[] } {
  let reading = readings.get(event);
  if (reading === undefined) {
    const used = new Set<string>();
    collectPrefixes(event, used);
    reading = { json: JSON.stringify(event), prefixes: [...used] };
    readings.set(event, reading);
  }
  return reading;
}

/** The @context of an answer: the EPCIS context, plus the extension prefixes its events use. */
export function contextFor(events: readonly EpcisEvent[]): unknown[] {
  const used = new Set<string>();
  for (const e of events) for (const prefix of readingOf(e).prefixes) used.add(prefix);
  const prefixes: Record<string, string> = {};
  for (const [prefix, iri] of Object.entries(KNOWN_PREFIXES)) if (used.has(prefix)) prefixes[prefix] = iri;
  return Object.keys(prefixes).length === 0 ? [EPCIS_CONTEXT] : [EPCIS_CONTEXT, prefixes];
}

function collectPrefixes(v: unknown, into: Set<string>): void {
  if (Array.isArray(v)) {
    for (const item of v) collectPrefixes(item, into);
  } else if (v !== null && typeof v === "object") {
    for (const [key, value] of Object.entries(v)) {
      const colon = key.indexOf(":");
      if (colon > 0) into.add(key.slice(0, colon));
      collectPrefixes(value, into);
    }
  }
}

/** The body of a GET /events answer: an EPCISQueryDocument of the SimpleEventQuery (EPCIS 2.0 REST binding). */
export function queryDocument(events: EpcisEvent[], opts: { withContext: boolean }): Record<string, unknown> {
  return documentListing(events, events, opts);
}

/** The query document of `events`, its event list being `listed`. */
function documentListing(
  events: readonly EpcisEvent[],
  listed: readonly EpcisEvent[],
  opts: { withContext: boolean },
): Record<string, unknown> {
  return {
    ...(opts.withContext ? { "@context": contextFor(events) } : {}),
    type: "EPCISQueryDocument",
    schemaVersion: "2.0",
    creationDate: new Date().toISOString(),
    epcisBody: { queryResults: { queryName: "SimpleEventQuery", resultsBody: { eventList: listed } } },
  };
}

const LIST_END = "]}}}}";

/**
 * The text of queryDocument(events, opts), written from each event's text computed once (readingOf): the same
 * characters JSON.stringify would write for the whole document.
 */
export function queryDocumentText(events: EpcisEvent[], opts: { withContext: boolean }): string {
  const frame = JSON.stringify(documentListing(events, [], opts));
  if (!frame.endsWith(`[${LIST_END}`))
    throw new Error("The query document no longer ends with its event list.");
  const head = frame.slice(0, -LIST_END.length);
  return `${head}${events.map((e) => readingOf(e).json).join(",")}${LIST_END}`;
}
