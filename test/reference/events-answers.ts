// Reading the reference sender's GET /events answers in tests: the request sent exactly as written, the
// EPCISQueryDocument's events and their ids, the pages of a paged answer, and the published schema they must meet.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { request } from "undici";
import type { EpcisEvent } from "../../src/model/index.ts";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** GET `{base}/events?{query}` with the query string sent exactly as given. */
export async function getEvents(
  base: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return getUrl(`${base}/events${query === "" ? "" : `?${query}`}`, headers);
}

export async function getUrl(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(url, { headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) };
}

/** The eventList of an EPCISQueryDocument. */
export function eventsOf(body: unknown): EpcisEvent[] {
  const doc = body as { epcisBody?: { queryResults?: { resultsBody?: { eventList?: EpcisEvent[] } } } };
  const list = doc.epcisBody?.queryResults?.resultsBody?.eventList;
  if (!Array.isArray(list))
    throw new Error(`not an EPCISQueryDocument: ${JSON.stringify(body).slice(0, 200)}`);
  return list;
}

export function idsOf(events: readonly EpcisEvent[]): string[] {
  return events.map((e) => e.eventID ?? "?");
}

/** The next-page URL of a Link header, if any. */
export function nextLink(a: Answer): string | undefined {
  const link = a.headers.link;
  const text = Array.isArray(link) ? link.join(", ") : link;
  return text === undefined ? undefined : /<([^>]+)>;\s*rel="next"/.exec(text)?.[1];
}

/** Every page of an answer, following Link rel="next" up to `limit` pages. */
export async function allPages(
  base: string,
  query: string,
  limit = 100,
): Promise<{ pages: Answer[]; events: EpcisEvent[] }> {
  const pages = [await getEvents(base, query)];
  for (let next = nextLink(pages[0] as Answer); next !== undefined && pages.length < limit; ) {
    const page = await getUrl(next);
    pages.push(page);
    next = nextLink(page);
  }
  return { pages, events: pages.flatMap((p) => (p.status === 200 ? eventsOf(p.body) : [])) };
}

const SCHEMA_FILE = path.resolve(
  fileURLToPath(import.meta.url),
  "../../../../shared/epcis/schema/epcis-json-schema-2.0.1.json",
);

/** The published EPCIS 2.0 JSON schema, compiled once (draft-07, formats on, strict off as the schema needs). */
export async function epcisValidator(): Promise<ValidateFunction> {
  const schema = JSON.parse(await readFile(SCHEMA_FILE, "utf8")) as object;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}
