// Named faults of the reference receiver: each one a single defect a real client could have, tied to the
// receiver requirements (suites/requirements.yaml, class receiver) it violates. They exist to prove that
// `tracecheck receiver` catches each defect; `tracecheck trace --faults NAME` switches one on.

export interface ReceiverFault {
  id: string;
  description: string;
  violates: string[];
  /**
   * The sender configurations (`tracecheck receiver --reference-config`) in which the defect can show: it needs
   * pages to ignore or a 413 to meet. Absent: it shows against any sender.
   */
  shownIn?: readonly string[];
}

export const RECEIVER_FAULTS: readonly ReceiverFault[] = Object.freeze([
  {
    id: "repeat-key",
    description: "Sends the values of a list parameter as the key repeated (MATCH_anyEPC=a&MATCH_anyEPC=b).",
    violates: ["RCV-NO-REPEATED-KEY"],
  },
  {
    id: "raw-pipe",
    description: "Joins the values of a list parameter with a raw | instead of %7C.",
    violates: ["RCV-PIPE-JOINED"],
  },
  {
    id: "key-in-query",
    description: "Puts the API key in the query string (api_key=…) instead of the X-API-Key header.",
    violates: ["RCV-KEY-HEADER", "RCV-KEY-NOT-IN-URL"],
  },
  {
    id: "alphabetic-ai",
    description:
      "Asks the resolver with alphabetic application identifiers (/gtin/…/ser/…) instead of numeric ones.",
    violates: ["RCV-RESOLVER-PATH"],
  },
  {
    id: "guessed-masterdata",
    description:
      "Asks the resolver for each key's links, then fetches master data at a path it builds itself ({resolver}/masterdata/01/{gtin}) instead of the href the resolver gave.",
    violates: ["RCV-MASTERDATA-HREF"],
  },
  {
    id: "setup-events",
    description:
      "Asks the resolver for the identifier's epcis link, then queries GET /events at the events base given at setup instead of the query interface the link names.",
    violates: ["RCV-EPCIS-LINK"],
  },
  {
    id: "ignore-paging",
    description: 'Reads only the first page of an answer and never follows Link rel="next".',
    violates: ["RCV-PAGING"],
    shownIn: ["paged", "relative-paging", "shuffled"],
  },
  {
    id: "local-time",
    description: "Writes the eventTime bounds of a narrowed query at the offset +02:00 instead of in UTC.",
    violates: ["RCV-TIME-UTC"],
    shownIn: ["narrow-windows"],
  },
  {
    id: "give-up-413",
    description: "Takes a 413 as the end of a query instead of narrowing it.",
    violates: ["RCV-413-NARROW"],
    shownIn: ["narrow-only", "narrow-windows"],
  },
]);

export const RECEIVER_FAULT_IDS: readonly string[] = RECEIVER_FAULTS.map((f) => f.id);

/** The faults as a set, or an error naming the unknown ones and the known. */
export function checkedReceiverFaults(ids: readonly string[]): ReadonlySet<string> {
  const unknown = ids.filter((id) => !RECEIVER_FAULT_IDS.includes(id));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown receiver fault ${unknown.join(", ")}; the known ones are ${RECEIVER_FAULT_IDS.join(", ")}.`,
    );
  }
  return new Set(ids);
}
