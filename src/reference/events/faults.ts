import type { Fault } from "../types.ts";

type Entry = { description: string; violates: string[] };

const TIME_BOUNDS = ["EVT-TIME-LT-RECORD", "EVT-TIME-GE-RECORD", "EVT-TIME-LT-EVENT", "EVT-TIME-GE-EVENT"];

// Each entry is one defect a real GET /events implementation could have; the code it switches on lives in the
// events room (query reading, match rules, answer shaping) and nowhere else.
const CATALOGUE = {
  "lt-record-inclusive": {
    description: "LT_recordTime keeps events whose recordTime equals the bound (<= instead of <).",
    violates: ["EVT-TIME-LT-RECORD"],
  },
  "ge-record-exclusive": {
    description: "GE_recordTime drops events whose recordTime equals the bound (> instead of >=).",
    violates: ["EVT-TIME-GE-RECORD"],
  },
  "lt-event-inclusive": {
    description: "LT_eventTime keeps events whose eventTime equals the bound (<= instead of <).",
    violates: ["EVT-TIME-LT-EVENT"],
  },
  "ge-event-exclusive": {
    description: "GE_eventTime drops events whose eventTime equals the bound (> instead of >=).",
    violates: ["EVT-TIME-GE-EVENT"],
  },
  "time-millisecond-truncation": {
    description:
      "Time bounds compare at millisecond precision, cutting off the sub-millisecond digits of both sides.",
    violates: TIME_BOUNDS,
  },
  "time-ignores-offset": {
    description: "Time bounds compare the written wall-clock times and disregard their UTC offsets.",
    violates: TIME_BOUNDS,
  },
  "epc-ignores-epclist": {
    description: "MATCH_anyEPC does not look at epcList.",
    violates: ["EVT-EPC-EPCLIST"],
  },
  "epc-ignores-childepcs": {
    description: "MATCH_anyEPC does not look at childEPCs.",
    violates: ["EVT-EPC-CHILDEPCS"],
  },
  "epc-ignores-parentid": {
    description: "MATCH_anyEPC does not look at parentID.",
    violates: ["EVT-EPC-PARENTID"],
  },
  "epc-ignores-input": {
    description: "MATCH_anyEPC does not look at inputEPCList.",
    violates: ["EVT-EPC-INPUT"],
  },
  "epc-ignores-output": {
    description: "MATCH_anyEPC does not look at outputEPCList.",
    violates: ["EVT-EPC-OUTPUT"],
  },
  "epc-urn-only": {
    description:
      "MATCH_anyEPC compares EPCs as written, so a Digital Link value never matches an EPC stored as a URN and vice versa.",
    violates: ["EVT-EPC-FORMS"],
  },
  "class-ignores-quantitylist": {
    description: "MATCH_anyEPCClass does not look at quantityList.",
    violates: ["EVT-CLASS-QUANTITY"],
  },
  "class-ignores-child": {
    description: "MATCH_anyEPCClass does not look at childQuantityList.",
    violates: ["EVT-CLASS-CHILD"],
  },
  "class-ignores-input": {
    description: "MATCH_anyEPCClass does not look at inputQuantityList.",
    violates: ["EVT-CLASS-INPUT"],
  },
  "class-ignores-output": {
    description: "MATCH_anyEPCClass does not look at outputQuantityList.",
    violates: ["EVT-CLASS-OUTPUT"],
  },
  "class-no-patterns": {
    description: "MATCH_anyEPCClass treats a class pattern (urn:epc:idpat:sgtin:…) as a plain identifier.",
    violates: ["EVT-CLASS-PATTERN"],
  },
  "bizstep-exact-string": {
    description: "EQ_bizStep compares strings, so the short, URN and Web URI forms of one step differ.",
    violates: ["EVT-BIZSTEP-FORMS"],
  },
  "bizstep-ignored": {
    description: "EQ_bizStep is accepted and not applied.",
    violates: ["EVT-BIZSTEP-MATCH"],
  },
  "transformation-id-ignored": {
    description: "EQ_transformationID is accepted and not applied.",
    violates: ["EVT-TRANSFORMATION-ID"],
  },
  "bizlocation-ignored": {
    description: "EQ_bizLocation is accepted and not applied.",
    violates: ["EVT-BIZLOCATION"],
  },
  "pipe-not-split": {
    description: "A pipe-joined list value is taken as one value instead of alternatives.",
    violates: ["EVT-PIPE-OR"],
  },
  "pipe-as-and": {
    description: "The values of a pipe-joined list must all match (AND) instead of any one (OR).",
    violates: ["EVT-PIPE-OR"],
  },
  "repeat-last-wins": {
    description:
      "A repeated key is accepted and its last value used instead of the request being refused (a SHOULD).",
    violates: ["EVT-REPEAT-REFUSED"],
  },
  "repeat-as-or": {
    description:
      "A repeated list parameter is read as its values joined by the pipe, which spec 4.1 rule 2 says it is not.",
    violates: ["EVT-REPEAT-NOT-PIPE", "EVT-REPEAT-REFUSED"],
  },
  "repeat-as-own-pipe": {
    description:
      "The values of a list parameter must all match (AND), and a repeated list key is gathered into that list, so a repeat is answered exactly as the wrong pipe-joined query.",
    violates: ["EVT-REPEAT-NOT-PIPE", "EVT-PIPE-OR", "EVT-REPEAT-REFUSED"],
  },
  "and-as-or": {
    description: "Different parameters combine as OR instead of AND.",
    violates: ["EVT-AND"],
  },
  "encoding-double-decode": {
    description: "List values are percent-decoded twice, so a value containing an encoded '%' is altered.",
    violates: ["EVT-ENCODING"],
  },
  "narrow-413": {
    description: "A query with a single MATCH_anyEPC value is refused with 413 Query Too Complex.",
    violates: ["EVT-413-NARROW"],
  },
  "paging-drops-last-page": {
    description: "The page before the last one carries no next link, so the last page cannot be reached.",
    violates: ["EVT-PAGING"],
  },
  "paging-loop": {
    description: "The last page carries a next link that points back to the first page.",
    violates: ["EVT-PAGING"],
  },
  "unfiltered-truncated": {
    description: "The unfiltered query silently answers only the first 10 events, without a next link.",
    violates: ["EVT-UNFILTERED"],
  },
  "shape-no-context": {
    description: "The EPCISQueryDocument is served without @context.",
    violates: ["EVT-SHAPE-SCHEMA"],
  },
  "shape-bad-eventtime": {
    description: "eventTime is written without its time zone.",
    violates: ["EVT-SHAPE-SCHEMA"],
  },
  "content-drops-field": {
    description: "A filtered query drops the ilmd of the events it returns.",
    violates: ["EVT-SHAPE-CONTENT"],
  },
  "core-shipping-disposition": {
    description: "Shipping events are served with disposition active instead of in_transit.",
    violates: ["CORE-COLUMNS"],
  },
  "core-commission-action": {
    description:
      "Commissioning ObjectEvents are served with action OBSERVE instead of ADD (without their ilmd, which EPCIS allows only with ADD, so that the answer stays valid).",
    violates: ["CORE-SIGNATURE"],
  },
  "module-core-owner-empty": {
    description: "Events are served with an empty gdst:productOwner.",
    violates: ["CORE-MODULE-CORE"],
  },
  "module-seafood-no-owner": {
    description: "Events are served without gdst:productOwner.",
    violates: ["CORE-MODULE-SEAFOOD"],
  },
  "module-seafood-no-lot": {
    description: "Events are served without cbvmda:lotNumber in their ilmd.",
    violates: ["CORE-MODULE-SEAFOOD"],
  },
  "module-wildcatch-flag": {
    description: "The vessel flag of wild-catch events is served in lower case.",
    violates: ["CORE-MODULE-WILDCATCH"],
  },
  "module-aquaculture-no-method": {
    description: "Aquaculture events are served without gdst:aquacultureMethod in their ilmd.",
    violates: ["CORE-MODULE-AQUACULTURE"],
  },
} satisfies Record<string, Entry>;

export type EventsFaultId = keyof typeof CATALOGUE;

export const EVENTS_FAULTS: Fault[] = Object.entries(CATALOGUE).map(([id, f]) => ({
  id,
  description: f.description,
  violates: [...f.violates],
}));

/** Whether a named events fault is switched on; the id is checked at compile time against the catalogue. */
export function faultOn(faults: ReadonlySet<string>, id: EventsFaultId): boolean {
  return faults.has(id);
}
