// Hand-made events for tests: an ObjectEvent observed at one instant, to which each test gives the fields it is
// about.
import type { EpcisEvent } from "../../src/model/index.ts";

const OBSERVED = {
  type: "ObjectEvent",
  eventTime: "2024-03-01T10:00:00Z",
  eventTimeZoneOffset: "+00:00",
  action: "OBSERVE",
} as const;

/** An ObjectEvent with the eventID urn:uuid:`uuid`, observed at 10:00 UTC on 1 March 2024; `fields` add or replace. */
export function observedEvent(uuid: string, fields: Partial<EpcisEvent> = {}): EpcisEvent {
  return { ...OBSERVED, eventID: `urn:uuid:${uuid}`, ...fields };
}

/** An EPCISQueryDocument answering `events`, as a sender's GET /events writes it. */
export function queryDocument(events: readonly EpcisEvent[]): Record<string, unknown> {
  return {
    "@context": ["https://ref.gs1.org/standards/epcis/epcis-context.jsonld"],
    type: "EPCISQueryDocument",
    schemaVersion: "2.0",
    creationDate: "2024-01-01T00:00:00Z",
    epcisBody: { queryResults: { queryName: "SimpleEventQuery", resultsBody: { eventList: events } } },
  };
}
