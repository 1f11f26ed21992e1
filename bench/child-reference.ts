// Child process: generates `events` events, loads them into the reference store and times the store's indexed
// queries against a linear scan. Its peak resident set after loading is the reference's own.
import { generateDataset } from "../src/generate/index.ts";
import { EventStore } from "../src/reference/index.ts";
import { BENCH_SEED } from "./baseline-events.ts";
import { emitResult, peakRssBytes, progress } from "./child.ts";
import { linearScan, scanRows } from "./linear-scan.ts";
import { QUERY_KINDS, type QueryKind, queriesOf } from "./queries.ts";
import { measurePair, median } from "./sample.ts";

export interface KindFigures {
  kind: QueryKind;
  queries: number;
  indexedMs: number;
  scanMs: number;
  /** Median events the index answered and the scan found, per query. */
  indexedMatches: number;
  scanMatches: number;
}

export interface ReferenceFigures {
  events: number;
  generateMs: number;
  loadMs: number;
  peakRssAfterLoadBytes: number;
  /** Alternating samples of the indexed query and the scan taken per query. */
  rounds: number;
  kinds: KindFigures[];
}

const QUERIES_PER_KIND = 5;
/** Alternating samples of the indexed query and the scan, per query; each figure is their median. */
const ROUNDS = 9;

async function main(): Promise<void> {
  const events = Number(process.argv[2]);
  if (!Number.isSafeInteger(events) || events < 1) {
    throw new Error(`Pass the number of events as the first argument, got "${process.argv[2]}".`);
  }
  progress(`reference: generating ${events} events`);
  let started = performance.now();
  const dataset = generateDataset({ seed: BENCH_SEED, events });
  const generateMs = performance.now() - started;
  progress(`reference: loading ${events} events`);
  started = performance.now();
  const store = await EventStore.load(dataset.events);
  const loadMs = performance.now() - started;
  const peakRssAfterLoadBytes = peakRssBytes();

  const rows = scanRows(store.events);
  const kinds: KindFigures[] = [];
  for (const kind of QUERY_KINDS) {
    progress(`reference: ${kind} queries over ${events} events`);
    const indexed: number[] = [];
    const scanned: number[] = [];
    const indexedMatches: number[] = [];
    const scanMatches: number[] = [];
    for (const q of queriesOf(kind, store.events, QUERIES_PER_KIND)) {
      // Alternating samples, so that load from elsewhere on the machine falls on both sides of the ratio.
      const [byIndex, byScan] = await measurePair(
        () => store.query(q),
        () => linearScan(rows, q),
        { rounds: ROUNDS },
      );
      indexed.push(byIndex.medianMs);
      scanned.push(byScan.medianMs);
      indexedMatches.push(store.query(q).events.length);
      scanMatches.push(linearScan(rows, q).length);
    }
    kinds.push({
      kind,
      queries: indexed.length,
      indexedMs: median(indexed),
      scanMs: median(scanned),
      indexedMatches: median(indexedMatches),
      scanMatches: median(scanMatches),
    });
  }
  const figures: ReferenceFigures = {
    events,
    generateMs,
    loadMs,
    peakRssAfterLoadBytes,
    rounds: ROUNDS,
    kinds,
  };
  emitResult(figures);
}

await main();
