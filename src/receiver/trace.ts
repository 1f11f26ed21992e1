// The reference receiver (`tracecheck trace`): the exchange workflow of spec 1 as a client. It takes a product
// identifier, writes it as a Digital Link URI under the sender's resolver (spec 4.2: the canonical base replaced
// by the resolver's), asks for its link set, queries the EPCIS query interface the epcis link names, walks back
// through aggregations and transformations to the first events, and fetches the master data of the products,
// business locations and parties those events name at the hrefs the link sets give. Asked to, it learns the same
// locations from the resolver's redirects instead (linkType=gs1:epcis, gs1:masterData), as GS1 resolvers answer a
// link type. Every request goes through the harness's HTTP client: the key only to the sender's origins, in
// X-API-Key (spec 5.2).
import { type FollowPagesOptions, HttpClient, HttpError } from "../http/index.ts";
import {
  CANONICAL_DL_BASE,
  canonicalId,
  type DigitalLinkElement,
  digitalLinkToEpcUrn,
  type EpcisEvent,
  type EventQuery,
  eventIdentity,
  formatDigitalLink,
  isDigitalLink,
  parseDigitalLink,
} from "../model/index.ts";
import { type EventFetcher, fetchLink, fetchQuery } from "./events.ts";
import { checkedReceiverFaults } from "./faults.ts";
import { type LinkType, linksetHrefs } from "./linkset.ts";
import { aggregatedIn, kindOf, masterDataKeys, transformed } from "./subjects.ts";
import { resolverUrl } from "./wire.ts";

export interface TraceOptions {
  /** The product identifier: a Digital Link URI (under any base) or an EPC URN. */
  identifier: string;
  /** Base of the query interface (GET {eventsBase}/events): where events are asked when no epcis link says. */
  eventsBase: string;
  /** Base of the sender's resolver; default: eventsBase. */
  resolverBase?: string;
  apiKey?: string;
  /** Named client faults (faults.ts), for proving `tracecheck receiver`. */
  faults?: readonly string[];
  /**
   * How the resolver is asked where things are: "linkset" (default), for the identifier's link set and its hrefs;
   * "redirect", for one link type at a time (linkType=gs1:epcis, gs1:masterData), following the redirect.
   */
  resolve?: ResolveBy;
  timeoutMs?: number;
  /** Values of one list parameter asked at once (default 20); a 413 halves them. */
  batchSize?: number;
  /** Progress for a person, one line each. */
  note?: (line: string) => void;
}

export interface TraceOutcome {
  /** The identifier traced, as a Digital Link URI under https://id.gs1.org. */
  identifier: string;
  /** The events of the trace, each once, ordered by eventTime. */
  events: EpcisEvent[];
  /** The master data documents fetched, each once, in the order fetched. */
  masterData: Record<string, unknown>[];
  /** What could not be fetched, one sentence each; empty when the trace is complete. */
  gaps: string[];
  /** Requests sent. */
  requests: number;
}

/** A trace that cannot begin: the identifier is no product identifier, or the sender cannot be reached. */
export class TraceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TraceError";
  }
}

const DEFAULT_BATCH = 20;

export type ResolveBy = "linkset" | "redirect";

function identity(e: EpcisEvent): string {
  return typeof e.eventID === "string" ? e.eventID : eventIdentity(e);
}

function elementsOf(identifier: string): DigitalLinkElement[] {
  const canonical = canonicalId(identifier);
  if (!isDigitalLink(canonical)) {
    throw new TraceError(
      `"${identifier}" is neither a GS1 Digital Link URI nor an EPC URN with a Digital Link form; give the product as https://id.gs1.org/01/{gtin}/10/{lot}, …/21/{serial} or an EPC URN.`,
    );
  }
  return parseDigitalLink(canonical).elements;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function byEventTime(a: EpcisEvent, b: EpcisEvent): number {
  const at = Date.parse(a.eventTime ?? "");
  const bt = Date.parse(b.eventTime ?? "");
  return (Number.isNaN(at) ? 0 : at) - (Number.isNaN(bt) ? 0 : bt);
}

class Receiver {
  readonly client: HttpClient;
  readonly faults: ReadonlySet<string>;
  readonly events = new Map<string, EpcisEvent>();
  readonly masterData = new Map<string, Record<string, unknown>>();
  readonly gaps: string[] = [];
  readonly #apiKey: string | undefined;
  readonly #resolverBase: string;
  readonly #resolve: ResolveBy;
  readonly #note: (line: string) => void;

  constructor(opts: TraceOptions, resolverBase: string) {
    this.faults = checkedReceiverFaults(opts.faults ?? []);
    this.#resolve = opts.resolve ?? "linkset";
    this.#apiKey = opts.apiKey === "" ? undefined : opts.apiKey;
    this.#resolverBase = resolverBase;
    this.#note = opts.note ?? (() => {});
    this.client = new HttpClient({
      timeoutMs: opts.timeoutMs ?? 10_000,
      ...(this.#apiKey !== undefined ? { apiKey: this.#apiKey } : {}),
      allowedOrigins: [new URL(opts.eventsBase).origin, new URL(resolverBase).origin],
    });
  }

  /** The URL and request options that carry the key: the header, or (key-in-query fault) the query string. */
  withKey(url: string): { url: string; options: FollowPagesOptions } {
    if (!this.faults.has("key-in-query") || this.#apiKey === undefined) return { url, options: {} };
    const sep = url.includes("?") ? "&" : "?";
    return {
      url: `${url}${sep}api_key=${encodeURIComponent(this.#apiKey)}`,
      options: { request: { withKey: false } },
    };
  }

  fetcher(): EventFetcher {
    return {
      client: this.client,
      faults: this.faults,
      take: (events) => {
        for (const e of events) if (!this.events.has(identity(e))) this.events.set(identity(e), e);
      },
      gap: (reason) => {
        this.gaps.push(reason);
        this.#note(`gap: ${reason}`);
      },
      withKey: (url) => this.withKey(url),
    };
  }

  /**
   * The hrefs of one link type the resolver gives for the identifier: those of its link set, or where the
   * resolver redirects a request for that link type. Undefined when the resolver's answer could not be read.
   */
  async links(elements: DigitalLinkElement[], type: LinkType): Promise<string[] | undefined> {
    const linkType = this.#resolve === "redirect" ? `gs1:${type}` : "linkset";
    const { url, options } = this.withKey(resolverUrl(this.#resolverBase, elements, this.faults, linkType));
    const answer = await this.client.get(url, options.request);
    if (answer.status === 401 || answer.status === 403) {
      throw new TraceError(
        `the sender refused the API key (GET ${this.client.redactSecret(url)} answered ${answer.status}); check --api-key or TRACECHECK_API_KEY.`,
      );
    }
    if (this.#resolve === "redirect") {
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status <= 399 && location !== undefined) {
        return [new URL(location, answer.url).href];
      }
      // A resolver that has no link of the type answers 404 (spec 4.2 shows no status: any refusal is read so).
      return answer.status >= 400 && answer.status <= 499 ? [] : undefined;
    }
    if (answer.status < 200 || answer.status > 299) return undefined;
    let body: unknown;
    try {
      body = answer.json();
    } catch {
      return undefined;
    }
    return linksetHrefs(body, formatDigitalLink(CANONICAL_DL_BASE, elements), type, answer.url);
  }

  /**
   * Fetches the master data of one key at the masterData hrefs the resolver gives, or (fault) at a path of its own
   * wherever the resolver offers master data.
   */
  async fetchMasterData(uri: string, elements: DigitalLinkElement[]): Promise<void> {
    let offered: string[] | undefined;
    try {
      offered = await this.links(elements, "masterData");
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.gaps.push(`the resolver's answer about ${uri} could not be fetched: ${error.message}`);
      return;
    }
    if (offered === undefined) {
      this.gaps.push(
        `the resolver's answer about ${uri} could not be read, so its master data was not fetched.`,
      );
      return;
    }
    const built = `${this.#resolverBase}/masterdata${uri.slice(CANONICAL_DL_BASE.length)}`;
    const hrefs = this.faults.has("guessed-masterdata") && offered.length > 0 ? [built] : offered;
    for (const href of hrefs) {
      if (this.masterData.has(href)) continue;
      const { url, options } = this.withKey(href);
      try {
        const answer = await this.client.get(url, options.request);
        if (answer.status < 200 || answer.status > 299) {
          this.gaps.push(`the master data of ${uri} at ${href} answered ${answer.status}.`);
          continue;
        }
        const doc = answer.json<unknown>();
        if (typeof doc === "object" && doc !== null && !Array.isArray(doc)) {
          this.masterData.set(href, doc as Record<string, unknown>);
        }
      } catch (error) {
        this.gaps.push(`the master data of ${uri} at ${href} could not be read: ${(error as Error).message}`);
      }
    }
  }
}

/**
 * An identifier as written, its Digital Link form and the EPC URN forms that Digital Link may have, one per GS1
 * company prefix length (6 to 12) that gives one: only the true split names the identifier, so the others match
 * nothing.
 */
function identifierForms(written: string, canonical: string): string[] {
  const forms = new Set<string>([written, canonical]);
  if (isDigitalLink(canonical)) {
    for (let length = 6; length <= 12; length += 1) {
      const urn = digitalLinkToEpcUrn(canonical, length);
      if (urn !== undefined) forms.add(urn);
    }
  }
  return [...forms];
}

/** Pulls the trace of one product from a sender. Throws TraceError when the trace cannot begin. */
export async function runTrace(opts: TraceOptions): Promise<TraceOutcome> {
  const elements = elementsOf(opts.identifier);
  const identifier = formatDigitalLink(CANONICAL_DL_BASE, elements);
  const eventsBase = opts.eventsBase.replace(/\/+$/, "");
  const resolverBase = (opts.resolverBase ?? opts.eventsBase).replace(/\/+$/, "");
  const receiver = new Receiver(opts, resolverBase);
  const note = opts.note ?? (() => {});
  const batch = opts.batchSize ?? DEFAULT_BATCH;
  try {
    const fetcher = receiver.fetcher();
    // Spec 1, step 2: the resolver returns the location of the sender's EPCIS repository.
    let epcis: string[] | undefined;
    try {
      epcis = await receiver.links(elements, "epcis");
    } catch (error) {
      if (error instanceof HttpError) {
        throw new TraceError(
          `the sender's resolver ${resolverBase} could not be reached (${error.message}); check --resolver and that the sender is running.`,
        );
      }
      throw error;
    }
    const setupInterface = `${eventsBase}/events`;
    const learned = epcis?.[0];
    // The setup-events fault asks the link's own query, if it has one, at the interface given at setup.
    const link =
      learned !== undefined && receiver.faults.has("setup-events")
        ? setupInterface + learned.slice(learned.split("?")[0]!.length)
        : learned;
    let iface = setupInterface;
    if (link === undefined) {
      receiver.gaps.push(
        `the resolver names no query interface for ${identifier}, so the events were asked at ${iface} as given at setup.`,
      );
    } else {
      iface = link.split("?")[0]!;
    }
    note(`resolved ${identifier}: events at ${iface}`);

    const known = new Map<string, string>([[canonicalId(identifier), identifier]]);
    const asked = new Set<string>();
    const transformations = new Set<string>();
    const askedTransformations = new Set<string>();
    if (link?.includes("?")) {
      // The sender's own query for the identifier: used as it is written.
      await fetchLink(fetcher, link);
      asked.add(canonicalId(identifier));
    }
    for (let round = 1; ; round++) {
      for (const e of receiver.events.values()) {
        for (const id of aggregatedIn(e)) if (!known.has(canonicalId(id))) known.set(canonicalId(id), id);
        const { outputs, inputs } = transformed(e);
        if (!outputs.some((id) => known.has(canonicalId(id)))) continue;
        for (const id of inputs) if (!known.has(canonicalId(id))) known.set(canonicalId(id), id);
        if (typeof e.transformationID === "string") transformations.add(e.transformationID);
      }
      const fresh = [...known].filter(([canonical]) => !asked.has(canonical));
      const freshTransformations = [...transformations].filter((t) => !askedTransformations.has(t));
      if (fresh.length === 0 && freshTransformations.length === 0) break;
      for (const [canonical] of fresh) asked.add(canonical);
      for (const t of freshTransformations) askedTransformations.add(t);
      // Each identifier in every form it may be written in: the spec states form equivalence for bizStep
      // alone, so a sender may match an identifier only as each of its events writes it.
      const formsOf = (kind: "epc" | "class") =>
        fresh
          .filter(([, id]) => kindOf(id) === kind)
          .flatMap(([canonical, id]) => identifierForms(id, canonical));
      const queries: EventQuery[] = [
        ...chunks(formsOf("epc"), batch).map((values) => ({ MATCH_anyEPC: values })),
        ...chunks(formsOf("class"), batch).map((values) => ({ MATCH_anyEPCClass: values })),
        ...chunks(freshTransformations, batch).map((values) => ({ EQ_transformationID: values })),
      ];
      note(
        `round ${round}: ${fresh.length} identifier(s), ${freshTransformations.length} transformation(s), ${queries.length} quer${queries.length === 1 ? "y" : "ies"}`,
      );
      await Promise.all(queries.map((q) => fetchQuery(fetcher, iface, q)));
    }

    // The product's own master data is asked whatever the events say (spec 1, step 3: "the events and master
    // data of the products"), so that it never hangs on an answer of GET /events.
    const product = elements[0]?.ai === "01" ? [[elements[0]]] : [];
    const keys = masterDataKeys(receiver.events.values(), product);
    note(
      `${receiver.events.size} event(s); master data of ${keys.size} product(s), location(s) and part(ies)`,
    );
    await Promise.all([...keys].map(([uri, els]) => receiver.fetchMasterData(uri, els)));
    return {
      identifier,
      events: [...receiver.events.values()].sort(byEventTime),
      masterData: [...receiver.masterData.values()],
      gaps: receiver.gaps,
      requests: receiver.client.requestCount,
    };
  } finally {
    await receiver.client.close();
  }
}
