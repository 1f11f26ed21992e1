// The reference sender's shared shapes. Each part (events, resolver, master data, auth) registers its routes
// on one fastify instance and reads the same context, so a fault switched on reaches exactly the code it names.
import type { FastifyInstance } from "fastify";
import type { Dataset } from "../model/types.ts";
import type { OpaqueHrefs } from "./opaque-hrefs.ts";

/** A named defect of the reference sender, tied to the requirements (suites/requirements.yaml) it violates. */
export interface Fault {
  id: string;
  description: string;
  violates: string[];
}

/**
 * Named configurations of a correct but unusual sender (issue: "correct-but-unusual senders pass"); none of
 * them is a fault.
 */
export interface ReferenceConfig {
  /** Page size of GET /events; results over it are paged with Link rel="next". Default 1000. */
  pageSize: number;
  /** Refuse with 413 a query with no selective parameter matching more than this many events. Default: never. */
  broadLimit: number;
  /** Answer EPCs, classes and locations in Digital Link form instead of as loaded. */
  answerInDigitalLink: boolean;
  /** Status for a wrong key: 401 (default) or 403. */
  wrongKeyStatus: 401 | 403;
  /** Link-set anchors under https://id.gs1.org instead of the resolver's own base. */
  canonicalAnchors: boolean;
  /** Check the key on the resolver and master data too (the query interface always checks it when keys exist). */
  authOnResolver: boolean;
  /** The namespace link-set members are written under: spec 2.3's https://ref.gs1.org/voc/ (default) or another. */
  linkTypeNamespace: string;
  /**
   * Where epcis links lead: "identifier" (default), a GET /events query for the identifier; "query-interface",
   * the query interface itself, which the receiver queries for the identifier (spec 1, step 2).
   */
  epcisLinks: "identifier" | "query-interface";
  /** MATCH_anyEPC compares EPCs as written: a URN never matches a Digital Link of the same EPC, nor back. */
  epcsAsWritten: boolean;
  /**
   * Which /414 and /417 link sets offer master data beside epcis: "all" (default), "own", only the sender's
   * own party and locations, or "none" (spec 4.2: "reachable with gs1:masterData or gs1:epcis").
   */
  partyLocationMasterData: "all" | "own" | "none";
  /**
   * Which identifiers the resolver answers for: "all" it holds (default), or "own", only those under its own
   * party's company prefix; another company's identifier is then 404.
   */
  resolves: "all" | "own";
  /** Serve master data in another legal JSON-LD spelling of the same graph (src/reference/masterdata/variant.ts). */
  jsonLdVariant: boolean;
  /**
   * Serve master data gzip-compressed (Content-Encoding: gzip) whatever the request asks, as static hosting of
   * stored files does; a request without Accept-Encoding allows any coding (RFC 9110 12.5.3).
   */
  gzipMasterData: boolean;
  /** Answer GET /events at /events/, redirecting /events there (308) with its query, as some frameworks do. */
  redirectEvents: boolean;
  /**
   * Whether GET /events needs a key when keys exist (spec 5.6: "Some cases need no authentication."): "required"
   * (default); "optional", answered without one while a key given must be one the sender issued; "ignored",
   * answered whatever the X-API-Key header holds.
   */
  eventsKey: "required" | "optional" | "ignored";
  /** Time bounds of GET /events accepted in UTC only (Z, +00:00 or -00:00), others refused with 400. */
  utcOnly: boolean;
  /** A bare EQ_bizStep word that is not a CBV 2.0 step refused with 400. */
  strictBizSteps: boolean;
  /** An sgtin class pattern over a whole company prefix (CP.*.*) refused with 400; one over a GTIN answered. */
  gtinPatternsOnly: boolean;
  /**
   * Refuse with 413 any query answering more than this many events, but one for one EPC, lot class or
   * transformation; Infinity (default) refuses none.
   */
  largeLimit: number;
  /** Link rel="next" targets written relative to the page that carries them. */
  relativeLinks: boolean;
  /** A path the query interface lives under, e.g. /epcis: GET /epcis/events; "" (default) for none. */
  pathPrefix: string;
  /** Answers in an order of the sender's own, events with an extension field, served as application/json. */
  shuffled: boolean;
  /**
   * Serves, beside the dataset's core events, events outside the seven (src/generate/outside-core.ts): spec 6
   * names the seven core events the service serves, never that it serves only them.
   */
  outsideCore: boolean;
  /**
   * Refuse GET /events without any parameter with this status, a 4xx other than 413 (spec 7 shows no status but
   * 413); 0 (default) answers it.
   */
  refuseUnfiltered: number;
  /**
   * Capture new events after every this many GET /events answers, recorded at the time they are captured, as a
   * staging repository does while it is checked; Infinity (default) captures none.
   */
  captureEvery: number;
  /** Keep eventTime and recordTime to the millisecond, cutting finer digits as events are loaded or captured. */
  milliseconds: boolean;
}

export interface ReferenceOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, the resolver and master data listen on their own server at this port (0 = free port). */
  resolverPort?: number;
  /** Accepted keys; empty or absent: the sender is public. */
  apiKeys?: string[];
  dataset: Dataset;
  faults?: string[];
  config?: Partial<ReferenceConfig>;
}

export interface ReferenceContext {
  config: ReferenceConfig;
  faults: ReadonlySet<string>;
  apiKeys: readonly string[];
  /** The data as loaded, with recordTime assigned. */
  dataset: Dataset;
  /** Base URLs as seen by clients, without trailing slash, e.g. http://127.0.0.1:5555 */
  eventsBase(): string;
  resolverBase(): string;
  /**
   * Receiver mode only: master data and the query interface the epcis links name are served at paths no client
   * can build (src/reference/opaque-hrefs.ts); undefined elsewhere.
   */
  opaqueHrefs?: OpaqueHrefs;
}

export type RouteRegistrar = (app: FastifyInstance, ctx: ReferenceContext) => void;
