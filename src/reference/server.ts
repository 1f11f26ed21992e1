import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { outsideCoreEvents } from "../generate/outside-core.ts";
import { registerAuth } from "./auth/index.ts";
import { type CaptureLimits, registerCapture } from "./capture/index.ts";
import { capturing, registerEvents } from "./events/index.ts";
import { FAULTS } from "./faults.ts";
import { registerMasterData } from "./masterdata/index.ts";
import { opaqueHrefs } from "./opaque-hrefs.ts";
import { type RecordingOptions, registerRecording } from "./recording.ts";
import { registerResolver } from "./resolver/index.ts";
import { EventStore, type StoreOptions } from "./store/index.ts";
import type { ReferenceConfig, ReferenceContext, ReferenceOptions } from "./types.ts";

export const DEFAULT_CONFIG: Readonly<ReferenceConfig> = Object.freeze({
  pageSize: 1000,
  broadLimit: Number.POSITIVE_INFINITY,
  answerInDigitalLink: false,
  wrongKeyStatus: 401,
  canonicalAnchors: false,
  authOnResolver: false,
  linkTypeNamespace: "https://ref.gs1.org/voc/",
  epcisLinks: "identifier",
  partyLocationMasterData: "all",
  resolves: "all",
  eventsKey: "required",
  jsonLdVariant: false,
  gzipMasterData: false,
  redirectEvents: false,
  utcOnly: false,
  strictBizSteps: false,
  epcsAsWritten: false,
  gtinPatternsOnly: false,
  largeLimit: Number.POSITIVE_INFINITY,
  relativeLinks: false,
  pathPrefix: "",
  shuffled: false,
  refuseUnfiltered: 0,
  captureEvery: Number.POSITIVE_INFINITY,
  milliseconds: false,
  outsideCore: false,
});

export interface RunningReference {
  /** Base of the query interface, without trailing slash: GET {eventsBase}/events. */
  eventsBase: string;
  /** Base of the Digital Link resolver and master data, without trailing slash. */
  resolverBase: string;
  /** The origin the query interface listens on: that of eventsBase, unless `origin` named another to advertise. */
  listensOn: string;
  store: EventStore;
  /** The configuration it runs with, defaults filled in. */
  config: Readonly<ReferenceConfig>;
  close(): Promise<void>;
}

/**
 * Starts the reference sender; `store` sets how recordTimes are assigned on load (tests use it for fixed times),
 * `capture` the limits of its EPCIS capture interface, `recording` a sink for every request it takes (a receiver
 * being judged, src/reference/recording.ts), `opaqueHrefs` (receiver mode) the master data and the query
 * interface its epcis links name at paths of this start alone (src/reference/opaque-hrefs.ts), `origin` the origin
 * it writes into its bases and the links it serves (next pages, link-set targets) in place of the one it listens
 * on, for clients that reach it through another (a proxy in front of it); with `resolverPort` the resolver keeps
 * its own.
 */
export async function startReference(
  opts: ReferenceOptions & {
    store?: StoreOptions;
    capture?: Partial<CaptureLimits>;
    recording?: RecordingOptions;
    opaqueHrefs?: boolean;
    origin?: string;
  },
): Promise<RunningReference> {
  const faults = checkedFaults(opts.faults ?? []);
  const config: ReferenceConfig = { ...DEFAULT_CONFIG, ...opts.config };
  if (!Number.isInteger(config.pageSize) || config.pageSize < 1) {
    throw new Error(
      `The page size must be a positive whole number, got ${config.pageSize}; fix the configuration.`,
    );
  }
  const prefix = config.pathPrefix ?? "";
  if (prefix !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix)) {
    throw new Error(
      `The path prefix must be path segments each after a '/', like /epcis, got "${prefix}"; fix the configuration.`,
    );
  }
  const host = opts.host ?? "127.0.0.1";
  const loaded = config.outsideCore
    ? [...opts.dataset.events, ...outsideCoreEvents(opts.dataset.events)]
    : opts.dataset.events;
  const store = await EventStore.load(
    loaded,
    config.milliseconds ? { ...opts.store, milliseconds: true } : opts.store,
  );
  const bases = { events: "", resolver: "" };
  const ctx: ReferenceContext = {
    config,
    faults,
    apiKeys: [...(opts.apiKeys ?? [])],
    dataset: { events: [...store.events], masterData: opts.dataset.masterData },
    eventsBase: () => bases.events,
    resolverBase: () => bases.resolver,
  };
  if (opts.opaqueHrefs === true) ctx.opaqueHrefs = opaqueHrefs();
  const session = ctx.opaqueHrefs?.session;
  // The query interface as the resolver's epcis links name it: with opaque hrefs, its second home under the
  // session's segment, whose next-page links stay there too.
  const linkedCtx: ReferenceContext =
    session === undefined ? ctx : { ...ctx, eventsBase: () => `${bases.events}/${session}` };

  const capture = capturing(ctx, store);
  const eventsApp = newInstance();
  const shared = opts.resolverPort === undefined;
  if (opts.recording) registerRecording(eventsApp, shared ? "shared" : "events", opts.recording, store);
  eventsApp.register(
    async (scope) => {
      registerAuth(scope, ctx, "events");
      registerEvents(scope, ctx, store, capture);
      registerCapture(scope, store, opts.capture);
    },
    { prefix },
  );
  if (session !== undefined) {
    eventsApp.register(
      async (scope) => {
        registerAuth(scope, linkedCtx, "events");
        registerEvents(scope, linkedCtx, store, capture);
      },
      { prefix: `${prefix}/${session}` },
    );
  }
  const resolverApp = shared ? eventsApp : newInstance();
  if (opts.recording && !shared) registerRecording(resolverApp, "resolver", opts.recording, store);
  resolverApp.register(async (scope) => {
    registerAuth(scope, linkedCtx, "resolver");
    registerResolver(scope, linkedCtx);
    registerMasterData(scope, linkedCtx);
  });

  const apps = resolverApp === eventsApp ? [eventsApp] : [eventsApp, resolverApp];
  let listensOn: string;
  try {
    listensOn = await listen(eventsApp, host, opts.port ?? 0);
    const origin = opts.origin ?? listensOn;
    bases.events = origin + prefix;
    bases.resolver =
      resolverApp === eventsApp ? origin : await listen(resolverApp, host, opts.resolverPort ?? 0);
  } catch (err) {
    await Promise.all(apps.map((a) => a.close()));
    throw err;
  }
  return {
    eventsBase: bases.events,
    resolverBase: bases.resolver,
    listensOn,
    store,
    config,
    close: async () => {
      await Promise.all(apps.map((a) => a.close()));
    },
  };
}

function checkedFaults(ids: readonly string[]): ReadonlySet<string> {
  const known = new Set(FAULTS.map((f) => f.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown fault ${unknown.join(", ")}; run \`tracecheck faults\` to list the known faults.`,
    );
  }
  return new Set(ids);
}

/**
 * The reference's routes declare no schema: each reads its request itself, as a sender may. Fastify is given
 * compilers that say so instead of loading Ajv and a serializer compiler it would never use, a tenth of a second
 * of every run's start-up.
 */
const noRouteSchemas = () => () => {
  throw new Error("The reference's routes declare no schema; read the request in the handler instead.");
};

function newInstance(): FastifyInstance {
  // The logger stays off so that no request, and so no X-API-Key, is ever written anywhere.
  return Fastify({
    logger: false,
    routerOptions: { maxParamLength: 2048 },
    schemaController: {
      compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas },
    },
  });
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  // A wildcard address is not one a client can use; the loopback address is.
  const shown =
    address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  const shownHost = address.family === "IPv6" ? `[${shown}]` : shown;
  return `http://${shownHost}:${address.port}`;
}
