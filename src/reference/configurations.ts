// Named configurations of a correct but unusual sender. Each one exercises a freedom the spec leaves open
// (paging, the form identifiers are answered in, 413 on broad queries, the status of a refused key, where the
// resolver lives, whether GET /events needs a key) so that the harness can be shown to pass it; none of them is
// a fault.
import type { ReferenceConfig } from "./types.ts";

export interface NamedConfiguration {
  name: string;
  description: string;
  config: Partial<ReferenceConfig>;
  /**
   * The requirements a run of this configuration warns on, each naming the freedom it uses; the proof of no false
   * verdicts asserts exactly these warnings, no more and no fewer.
   */
  expectedWarnings: readonly string[];
  /** Set when the resolver and master data listen on a server of their own (0: a free port). */
  resolverPort?: number;
  /**
   * Set when the freedom shows only against the dataset the sender was loaded with: its proving run gives the
   * generated dataset with --dataset, so that the harness knows what was loaded.
   */
  withDataset?: true;
}

/** Small enough that the generated datasets always span several pages. */
const PAGED_SIZE = 7;
/** Small enough that the unfiltered query of any generated dataset is refused, large enough for narrow ones. */
const BROAD_LIMIT = 12;
/** Small enough that most answers but those for one identifier are refused as too large. */
const LARGE_LIMIT = 12;
/** GET /events answers between two captures of a repository that grows while it is read: a few dozen in a run. */
const CAPTURE_EVERY = 25;

export const REFERENCE_CONFIGURATIONS: readonly NamedConfiguration[] = Object.freeze([
  {
    name: "paged",
    description: `Pages every GET /events answer at ${PAGED_SIZE} events, linking the next page with rel="next".`,
    config: { pageSize: PAGED_SIZE },
    expectedWarnings: [],
  },
  {
    name: "digital-link",
    description:
      "Answers EPCs, classes and locations in their Digital Link form, whatever form they were loaded in.",
    config: { answerInDigitalLink: true },
    expectedWarnings: [],
  },
  {
    name: "refuse-broad",
    description: `Refuses with 413 a query without a selective parameter that matches more than ${BROAD_LIMIT} events (spec 4.1 rule 4, spec 7).`,
    config: { broadLimit: BROAD_LIMIT },
    expectedWarnings: [],
  },
  {
    name: "forbidden-403",
    description: "Refuses a wrong X-API-Key with 403 instead of 401 (spec 5 leaves the status open).",
    config: { wrongKeyStatus: 403 },
    expectedWarnings: [],
  },
  {
    name: "open-events",
    description:
      "Answers GET /events without a key and whatever X-API-Key holds (spec 5.6: some cases need no authentication).",
    config: { eventsKey: "ignored" },
    expectedWarnings: ["AUTH-MISSING"],
  },
  {
    name: "open-refuses-wrong",
    description:
      "Answers GET /events without a key, but refuses a key it did not issue when one is given (spec 5.6).",
    config: { eventsKey: "optional" },
    expectedWarnings: ["AUTH-MISSING"],
  },
  {
    name: "jsonld-variant",
    description:
      "Serves master data written another legal JSON-LD way (spec 2.2): an @graph, full IRIs under https://ref.gs1.org/voc/ beside a gs1: prefix for https://gs1.org/voc/, language-tagged names, the address a node of its own, and a context it serves itself, named relative to the document.",
    config: { jsonLdVariant: true },
    expectedWarnings: [],
  },
  {
    name: "gzip-master-data",
    description:
      "Serves every master data document gzip-compressed (Content-Encoding: gzip) whatever the request asks, as static hosting of stored files does.",
    config: { gzipMasterData: true },
    expectedWarnings: [],
  },
  {
    name: "redirect-events",
    description:
      "Answers GET /events at /events/ and redirects /events there (308), query kept, as a framework that puts a slash after a collection's path does (spec 1: HTTP following REST).",
    config: { redirectEvents: true },
    expectedWarnings: [],
  },
  {
    name: "split-resolver",
    description:
      "Serves the resolver and master data on a port of their own, with link-set anchors under the canonical base https://id.gs1.org (spec 4.2).",
    config: { canonicalAnchors: true },
    expectedWarnings: [],
    resolverPort: 0,
  },
  {
    name: "gs1-voc-linktypes",
    description:
      "Writes link-set members under https://gs1.org/voc/, as GS1's own resolver does, instead of spec 2.3's https://ref.gs1.org/voc/: the GS1 Web Vocabulary's other name for the same link types.",
    config: { linkTypeNamespace: "https://gs1.org/voc/" },
    expectedWarnings: ["RES-LINKTYPE-SPELLING"],
  },
  {
    name: "query-interface-link",
    description:
      "Gives as every epcis link the query interface itself ({events base}/events), which the receiver queries for the identifier (spec 1, step 2).",
    config: { epcisLinks: "query-interface" },
    expectedWarnings: [],
  },
  {
    name: "party-location-epcis",
    description:
      "Offers only gs1:epcis for the parties and locations of other companies, master data beside it only for its own party and locations (spec 4.2: reachable with gs1:masterData or gs1:epcis).",
    config: { partyLocationMasterData: "own" },
    expectedWarnings: [],
  },
  {
    name: "authority-only",
    description:
      "Resolves only identifiers under the company prefix of its own party and answers 404 for every other company's GTIN, SSCC, GLN or party.",
    config: { resolves: "own" },
    expectedWarnings: [],
  },
  {
    name: "utc-only",
    description:
      'Refuses with 400 a GET /events time bound that is not in UTC (Z, +00:00 or -00:00): spec 4.1 types the bounds "ISO date-time in UTC".',
    config: { utcOnly: true },
    expectedWarnings: ["EVT-TIME-PROBES"],
  },
  {
    name: "strict-bizstep",
    description: "Refuses with 400 an EQ_bizStep word that is not a CBV business step.",
    config: { strictBizSteps: true },
    expectedWarnings: ["EVT-BIZSTEP-UNKNOWN"],
  },
  {
    name: "as-written",
    description:
      "Matches MATCH_anyEPC values only as written (a URN never selects an EPC stored as a Digital Link, nor back) and gives its query interface itself as each link set's epcis link: the spec states form equivalence for bizStep alone.",
    config: { epcsAsWritten: true, epcisLinks: "query-interface" },
    expectedWarnings: ["EVT-EPC-FORMS"],
  },
  {
    name: "gtin-patterns",
    description:
      "Refuses with 400 a MATCH_anyEPCClass pattern over a whole company prefix (urn:epc:idpat:sgtin:CP.*.*) and answers patterns over one GTIN.",
    config: { gtinPatternsOnly: true },
    expectedWarnings: ["EVT-CLASS-PATTERN-PREFIX"],
  },
  {
    name: "refuse-large",
    description: `Refuses with 413 any GET /events query answering more than ${LARGE_LIMIT} events, but one for a single EPC, lot class or transformation (spec 8: the threshold is not a stated number).`,
    config: { largeLimit: LARGE_LIMIT },
    expectedWarnings: [],
  },
  {
    name: "relative-paging",
    description: `Pages GET /events answers at ${PAGED_SIZE} events with rel="next" targets relative to the page.`,
    config: { pageSize: PAGED_SIZE, relativeLinks: true },
    expectedWarnings: [],
  },
  {
    name: "path-prefix",
    description: "Serves the query interface under a path prefix: GET /epcis/events.",
    config: { pathPrefix: "/epcis" },
    expectedWarnings: [],
  },
  {
    name: "parties-epcis-only",
    description:
      "Offers only gs1:epcis for every party and location, its own exchanged at setup included, and master data for products alone (spec 4.2: reachable with gs1:masterData or gs1:epcis).",
    config: { partyLocationMasterData: "none" },
    expectedWarnings: [],
  },
  {
    name: "outside-core",
    description:
      "Serves, beside the seven core events, an AggregationEvent OBSERVE at receiving, an ObjectEvent OBSERVE at inspecting and a TransactionEvent ADD at shipping: spec 6 names the seven events the service serves, never that it serves only them.",
    config: { outsideCore: true },
    // Spec 6 "The service serves seven core events": an event beyond them is reported (SHOULD), never failed.
    expectedWarnings: ["CORE-TYPE"],
  },
  {
    name: "shuffled",
    description:
      "Answers GET /events in an order of its own, with an extension field on every event, as application/json.",
    config: { shuffled: true, pageSize: PAGED_SIZE },
    expectedWarnings: [],
  },
  {
    name: "unfiltered-400",
    description:
      "Refuses GET /events without any parameter with 400 instead of 413 (spec 7 shows no status but 413 for a query too broad to run), and answers every query with one.",
    config: { refuseUnfiltered: 400 },
    expectedWarnings: ["EVT-UNFILTERED"],
  },
  {
    name: "capturing",
    description: `Captures three new events, recorded and happening at the time, after every ${CAPTURE_EVERY} GET /events answers, as a staging repository that records while it is checked.`,
    config: { captureEvery: CAPTURE_EVERY },
    expectedWarnings: [],
  },
  {
    name: "millisecond-store",
    description:
      "Keeps eventTime and recordTime to the millisecond, cutting the finer digits of the times it is loaded with (the spec states no precision); run with the generated dataset given, whose times have up to nine digits.",
    config: { milliseconds: true },
    expectedWarnings: ["EVT-SHAPE-PRECISION"],
    withDataset: true,
  },
]);

export const REFERENCE_CONFIGURATION_NAMES: readonly string[] = REFERENCE_CONFIGURATIONS.map((c) => c.name);

/** The configuration called `name`; an unknown name is an error that lists the known ones. */
export function referenceConfiguration(name: string): NamedConfiguration {
  const found = REFERENCE_CONFIGURATIONS.find((c) => c.name === name);
  if (!found) {
    throw new Error(
      `Unknown reference configuration "${name}"; use one of ${REFERENCE_CONFIGURATION_NAMES.join(", ")}.`,
    );
  }
  return found;
}
