// The document loader the JSON-LD processor reads remote contexts through. It looks where the EPCIS schema is
// looked for (ARCHITECTURE.md: --schema-mirror, schemas/cache/, the sibling mirror ../shared/epcis/mirror, then
// the network), so that the EPCIS context and any GS1 context a mirror holds are read offline, and a context
// only the network has is fetched through the harness's own client, within the run's limits.
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RemoteDocument } from "jsonld/jsonld-spec.js";
import { DEFAULT_SCHEMA_CACHE, DEFAULT_SIBLING_MIRROR, mirrorPath } from "../../definition/index.ts";

export type DocumentLoader = (url: string) => Promise<RemoteDocument>;

/** A context the processor needs and no folder or fetch could give; what it makes is an error, never a fail. */
export class ContextUnavailableError extends Error {
  override readonly name = "ContextUnavailableError";
  readonly url: string;

  constructor(url: string, message: string) {
    super(message);
    this.url = url;
  }
}

/** A context fetched from the network: the JSON it answered and the URL that answered it after redirects. */
export interface FetchedContext {
  document: unknown;
  url: string;
}

export interface ContextLoaderOptions {
  /** A folder laid out as <dir>/<host>/<path> (--schema-mirror); defaults to env TRACECHECK_SCHEMA_MIRROR. */
  mirror?: string;
  /** Read like a mirror; contexts fetched from GS1's hosts are kept here. Defaults to schemas/cache/. */
  cacheDir?: string;
  /** Defaults to ../shared/epcis/mirror. */
  siblingMirror?: string;
  /** Fetches a context no folder holds; it throws with the reason when the answer is no JSON. Absent: offline. */
  fetchContext?: (url: string) => Promise<FetchedContext>;
  /** Distinct URLs fetched at most, so that no document can make the harness fetch without bound. Default 16. */
  maxFetches?: number;
}

const DEFAULT_MAX_FETCHES = 16;

// Published GS1 artefacts do not change under a URL, so a copy fetched once serves later offline runs; a
// context a target serves itself is read afresh each run, so that a corrected context is seen.
const KEPT_HOSTS = /(^|\.)gs1\.org$/i;

async function readIfPresent(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  try {
    await access(file);
  } catch {
    return undefined;
  }
  return readFile(file, "utf8");
}

/** The processor takes any JSON as a remote document and judges it itself. */
function remote(documentUrl: string, document: unknown): RemoteDocument {
  return { documentUrl, document: document as RemoteDocument["document"] };
}

/** Keeps a fetched context in the cache; a cache that cannot be written only costs a fetch next run. */
async function keep(file: string | undefined, document: unknown): Promise<void> {
  if (file === undefined) return;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(document));
  } catch {
    // Deliberately ignored: the context was read, and a read-only checkout is a legal place to run from.
  }
}

function parsed(url: string, text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ContextUnavailableError(
      url,
      `the JSON-LD context ${url} in ${where} is not JSON (${(err as Error).message}); replace the file.`,
    );
  }
}

/**
 * A loader for the JSON-LD processor. Each URL is read once per loader; a URL that cannot be read rejects with
 * a ContextUnavailableError saying where it was looked for and how to provide it.
 */
export function createContextLoader(options: ContextLoaderOptions = {}): DocumentLoader {
  const mirror = options.mirror ?? process.env.TRACECHECK_SCHEMA_MIRROR;
  const cacheDir = options.cacheDir ?? DEFAULT_SCHEMA_CACHE;
  const folders: [string | undefined, string][] = [
    [mirror, "the schema mirror"],
    [cacheDir, "the schema cache"],
    [options.siblingMirror ?? DEFAULT_SIBLING_MIRROR, "the sibling mirror"],
  ];
  const maxFetches = options.maxFetches ?? DEFAULT_MAX_FETCHES;
  const loaded = new Map<string, Promise<RemoteDocument>>();
  let fetches = 0;

  const load = async (url: string): Promise<RemoteDocument> => {
    let parsedUrl: URL | undefined;
    try {
      parsedUrl = new URL(url);
    } catch {
      parsedUrl = undefined;
    }
    if (parsedUrl === undefined || (parsedUrl.protocol !== "https:" && parsedUrl.protocol !== "http:")) {
      throw new ContextUnavailableError(
        url,
        `the JSON-LD context ${url} is not an http(s) URL, so it cannot be loaded; reference a context by its URL.`,
      );
    }
    for (const [dir, where] of folders) {
      const file = dir === undefined ? undefined : mirrorPath(dir, url);
      const text = await readIfPresent(file);
      if (text !== undefined) return remote(url, parsed(url, text, `${where} (${file})`));
    }
    const offline = `the JSON-LD context ${url} is in no schema mirror, cache or sibling mirror`;
    if (options.fetchContext === undefined) {
      throw new ContextUnavailableError(
        url,
        `${offline} and the network is not used here; provide it with --schema-mirror <dir>, laid out as <dir>/<host>/<path>.`,
      );
    }
    if (fetches >= maxFetches) {
      throw new ContextUnavailableError(
        url,
        `${offline}, and ${maxFetches} remote contexts were already fetched in this run; provide it with --schema-mirror <dir>.`,
      );
    }
    fetches += 1;
    let fetched: FetchedContext;
    try {
      fetched = await options.fetchContext(url);
    } catch (err) {
      throw new ContextUnavailableError(
        url,
        `${offline} and fetching it failed (${(err as Error).message}); provide it with --schema-mirror <dir>, laid out as <dir>/<host>/<path>.`,
      );
    }
    if (KEPT_HOSTS.test(parsedUrl.hostname)) await keep(mirrorPath(cacheDir, url), fetched.document);
    return remote(fetched.url, fetched.document);
  };

  return (url) => {
    let found = loaded.get(url);
    if (found === undefined) {
      found = load(url);
      loaded.set(url, found);
    }
    return found;
  };
}
