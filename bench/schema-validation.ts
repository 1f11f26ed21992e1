// Schema validation: events validated per second through the harness's validators (createValidators) against a
// bare compiled ajv validator of the published EPCIS 2.0 schema, on the same events (target: ratio at least 0.8).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import formats from "ajv-formats";
import { createValidators } from "../src/definition/index.ts";
import { generateDataset } from "../src/generate/index.ts";
import type { EpcisEvent } from "../src/model/index.ts";
import { queryDocument } from "../src/reference/events/query-document.ts";
import { BENCH_SEED } from "./baseline-events.ts";
import { progress } from "./child.ts";
import { REPO_ROOT } from "./command.ts";
import type { Benchmark, BenchRow } from "./row.ts";
import { measurePair } from "./sample.ts";
import { formatNumber } from "./table.ts";

const EVENTS = 2000;
/** Events per query document: the reference's default page size. */
const PER_DOCUMENT = 1000;
const TARGET_RATIO = 0.8;
const PUBLISHED_SCHEMA = path.resolve(REPO_ROOT, "../shared/epcis/schema/epcis-json-schema-2.0.1.json");

function bareValidators(schema: { $id?: string }): { event: ValidateFunction; document: ValidateFunction } {
  const ajv = new Ajv({ strict: false });
  formats.default(ajv);
  const id = schema.$id ?? "epcis";
  ajv.addSchema(schema, id);
  return {
    event: ajv.compile({ $ref: `${id}#/definitions/EPCIS-Document-Event` }),
    document: ajv.compile({ $ref: id }),
  };
}

/** Events per second through each of two validators, timed in alternation. */
async function eventsPerSecond(
  count: number,
  ours: () => boolean,
  bare: () => boolean,
): Promise<[number, number]> {
  if (!ours() || !bare()) {
    throw new Error(
      "The benchmark events do not validate, so the figures would time error paths; check the generator.",
    );
  }
  const [a, b] = await measurePair(ours, bare);
  return [count / (a.medianMs / 1000), count / (b.medianMs / 1000)];
}

function row(measureText: string, ours: number, bare: number): BenchRow {
  const ratio = ours / bare;
  return {
    what: "schema validation",
    measure: measureText,
    value: ours,
    unit: "events/s",
    target: `ratio ≥ ${TARGET_RATIO}`,
    ratio,
    met: ratio >= TARGET_RATIO,
    note: `bare ajv: ${formatNumber(bare)} events/s`,
  };
}

export const validationBenchmark: Benchmark = {
  name: "validation",
  async run() {
    progress("validation: compiling the validators");
    const schema = JSON.parse(await readFile(PUBLISHED_SCHEMA, "utf8")) as { $id?: string };
    const ours = await createValidators();
    const bare = bareValidators(schema);
    const events: EpcisEvent[] = generateDataset({ seed: BENCH_SEED, events: EVENTS }).events;
    const documents: Record<string, unknown>[] = [];
    for (let i = 0; i < events.length; i += PER_DOCUMENT) {
      documents.push(queryDocument(events.slice(i, i + PER_DOCUMENT), { withContext: true }));
    }
    progress("validation: timing");
    const [oursEvents, bareEvents] = await eventsPerSecond(
      EVENTS,
      () => events.every((e) => ours.validateEvent(e).valid),
      () => events.every((e) => bare.event(e)),
    );
    const [oursDocs, bareDocs] = await eventsPerSecond(
      EVENTS,
      () => documents.every((d) => ours.validateEpcisDocument(d).valid),
      () => documents.every((d) => bare.document(d)),
    );
    return [
      row("one event at a time: validateEvent ÷ bare ajv", oursEvents, bareEvents),
      row(`query documents of ${PER_DOCUMENT} events: validateEpcisDocument ÷ bare ajv`, oursDocs, bareDocs),
    ];
  },
};
