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
