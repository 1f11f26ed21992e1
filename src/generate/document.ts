// A dataset travels as an EPCISDocument (JSON-LD) whose master data rides in a namespaced extension member,
// which the published EPCIS 2.0 schema allows at the top level (any property name that is a URI).
import type { Dataset, EpcisEvent, MasterDataDocument } from "../model/index.ts";
import {
  compareTimes,
  EPCIS_CONTEXT_URL,
  EXTENSION_PREFIXES,
  formatInstant,
  parseInstant,
} from "../model/index.ts";

/** The extension member that carries master data, and the prefix that makes its name a URI. */
export const MASTER_DATA_MEMBER = "tracecheck:masterData";
export const DOCUMENT_PREFIXES = { ...EXTENSION_PREFIXES, tracecheck: "urn:tracecheck:" } as const;

// Used when a dataset has no event to date the document by.
const EPOCH = "1970-01-01T00:00:00Z";

export interface EpcisDatasetDocument {
  "@context": [string, Record<string, string>];
  type: "EPCISDocument";
  schemaVersion: "2.0";
  creationDate: string;
  [MASTER_DATA_MEMBER]: MasterDataDocument[];
  epcisBody: { eventList: EpcisEvent[] };
}

function latestEventTime(events: readonly EpcisEvent[]): string {
  let latest: string | undefined;
  for (const e of events) {
    if (typeof e.eventTime !== "string") continue;
    try {
      if (latest === undefined || compareTimes(e.eventTime, latest) > 0) latest = e.eventTime;
    } catch {
      // An unparseable time cannot date the document; the schema check reports it elsewhere.
    }
  }
  return latest === undefined ? EPOCH : formatInstant(parseInstant(latest));
}

/**
 * The dataset as an EPCISDocument. creationDate defaults to the latest eventTime (in UTC) so that one dataset
 * always gives the same bytes. The events are the dataset's own objects, not copies.
 */
export function datasetToDocument(ds: Dataset, opts: { creationDate?: string } = {}): EpcisDatasetDocument {
  return {
    "@context": [EPCIS_CONTEXT_URL, { ...DOCUMENT_PREFIXES }],
    type: "EPCISDocument",
    schemaVersion: "2.0",
    creationDate: opts.creationDate ?? latestEventTime(ds.events),
    [MASTER_DATA_MEMBER]: ds.masterData,
    epcisBody: { eventList: ds.events },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function eventListOf(doc: Record<string, unknown>): unknown {
  const body = doc["epcisBody"];
  if (!isObject(body)) return undefined;
  if (doc["type"] === "EPCISDocument") return body["eventList"];
  const results = body["queryResults"];
  const resultsBody = isObject(results) ? results["resultsBody"] : undefined;
  return isObject(resultsBody) ? resultsBody["eventList"] : undefined;
}

/**
 * The events and master data of an EPCISDocument or EPCISQueryDocument (ours, GS1's, GDST's, a vendor's):
 * events from epcisBody.eventList or epcisBody.queryResults.resultsBody.eventList, master data from our
 * extension member when present. Throws an Error for anything else.
 */
export function documentToDataset(doc: unknown): Dataset {
  const type = isObject(doc) ? doc["type"] : undefined;
  if (!isObject(doc) || (type !== "EPCISDocument" && type !== "EPCISQueryDocument")) {
    throw new Error(
      `Expected an EPCISDocument or EPCISQueryDocument but got ${isObject(doc) ? `type ${JSON.stringify(type)}` : "no JSON object"}; pass an EPCIS 2.0 JSON-LD document.`,
    );
  }
  const list = eventListOf(doc);
  if (!Array.isArray(list)) {
    const where =
      type === "EPCISDocument" ? "epcisBody.eventList" : "epcisBody.queryResults.resultsBody.eventList";
    throw new Error(`The ${type} has no event list at ${where}; give the document its events there.`);
  }
  list.forEach((e, i) => {
    if (!isObject(e) || typeof e["type"] !== "string") {
      throw new Error(`Event ${i} of the ${type} is not an object with a type; fix or remove that event.`);
    }
  });
  const extension = doc[MASTER_DATA_MEMBER];
  const masterData = Array.isArray(extension)
    ? extension.filter(
        (d): d is MasterDataDocument =>
          isObject(d) && typeof d["@id"] === "string" && typeof d["@type"] === "string",
      )
    : [];
  return { events: list as EpcisEvent[], masterData };
}
