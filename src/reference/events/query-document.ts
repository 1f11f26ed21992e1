import { EPCIS_CONTEXT_URL, type EpcisEvent, EXTENSION_PREFIXES } from "../../model/index.ts";

export const EPCIS_CONTEXT = EPCIS_CONTEXT_URL;

// Extension prefixes our events use. cbvmda is also in the EPCIS context; declaring it again with the same IRI is
// allowed for its protected terms and keeps the document readable on its own.
// "example" is the namespace of the extension field a sender configured as shuffled adds (answer-shape.ts).
const KNOWN_PREFIXES: Readonly<Record<string, string>> = {
  ...EXTENSION_PREFIXES,
  example: "https://example.com/epcis-extension/",
};

/** The @context of an answer: the EPCIS context, plus the extension prefixes its events use. */
export function contextFor(events: readonly EpcisEvent[]): unknown[] {
  const used = new Set<string>();
  for (const e of events) collectPrefixes(e, used);
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
  return {
    ...(opts.withContext ? { "@context": contextFor(events) } : {}),
    type: "EPCISQueryDocument",
    schemaVersion: "2.0",
    creationDate: new Date().toISOString(),
    epcisBody: { queryResults: { queryName: "SimpleEventQuery", resultsBody: { eventList: events } } },
  };
}
