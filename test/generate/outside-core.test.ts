// The events the outside-core configuration serves beside the core events: valid EPCIS 2.0, within every module
// schema, about objects the dataset already names, and none of them taken for a core event by the definition's
// rows, so that CORE-TYPE reports them and CORE-SIGNATURE and CORE-COLUMNS leave them alone.
import { describe, expect, it } from "vitest";
import {
  coreColumnsProblem,
  coreRowsOf,
  coreSignatureProblem,
  coreTypeProblem,
} from "../../src/assertions/core-events.ts";
import { loadDefinition } from "../../src/definition/index.ts";
import { datasetToDocument, generateDataset } from "../../src/generate/index.ts";
import { outsideCoreEvents } from "../../src/generate/outside-core.ts";
import { identifiersOf } from "../../src/target/baseline.ts";
import { epcisDocumentValidator, MODULE_NAMES, moduleValidators } from "./support.ts";

const validateDocument = epcisDocumentValidator();
const modules = moduleValidators();
const rows = coreRowsOf((await loadDefinition()).coreEvents);

describe("outsideCoreEvents", () => {
  for (const seed of [1, 2, 2024]) {
    const ds = generateDataset({ seed, events: 200 });
    const extra = outsideCoreEvents(ds.events);

    it(`seed ${seed}: an AggregationEvent OBSERVE, an ObjectEvent at inspecting and a TransactionEvent at shipping`, () => {
      expect(extra.map((e) => [e.type, e.action, e.bizStep])).toEqual([
        ["AggregationEvent", "OBSERVE", "receiving"],
        ["ObjectEvent", "OBSERVE", "inspecting"],
        ["TransactionEvent", "ADD", "shipping"],
      ]);
      expect(new Set([...ds.events, ...extra].map((e) => e.eventID)).size).toBe(ds.events.length + 3);
      expect(outsideCoreEvents(ds.events)).toEqual(extra);
    });

    it(`seed ${seed}: they are valid EPCIS 2.0 and meet every module schema`, () => {
      expect(validateDocument(datasetToDocument({ ...ds, events: [...ds.events, ...extra] }))).toEqual([]);
      for (const e of extra) for (const name of MODULE_NAMES) expect(modules[name](e), name).toEqual([]);
    });

    it(`seed ${seed}: they name only objects the dataset's events name`, () => {
      const known = new Set(ds.events.flatMap((e) => Object.values(identifiersOf(e)).flat()));
      for (const e of extra)
        for (const id of Object.values(identifiersOf(e)).flat()) expect(known).toContain(id);
    });

    it(`seed ${seed}: none is a core event, and none breaks a core event's signature or columns`, () => {
      for (const e of extra) {
        expect(coreTypeProblem(e, rows)?.message).toContain("matches none of the core event signatures");
        expect(coreSignatureProblem(e, rows)).toBeUndefined();
        expect(coreColumnsProblem(e, rows)).toBeUndefined();
      }
    });
  }

  it("writes none where the dataset has no core event to follow", () => {
    expect(outsideCoreEvents([])).toEqual([]);
  });
});
