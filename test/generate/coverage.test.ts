// A dataset of fixture size exercises everything the query checks of spec 4.1 need: both spellings of every
// identifier in every field, company prefixes of 7 to 10 digits, values that need percent-encoding, the bizStep
// forms, many offsets and precisions, events sharing one instant, and distinct event ids.
import { describe, expect, it } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { Dataset, EpcisEvent } from "../../src/model/index.ts";
import {
  CLASS_LISTS,
  compareTimes,
  EPC_FIELDS,
  fractionDigitsOf,
  instantsEqual,
  isDigitalLink,
  parseDigitalLink,
  parseInstant,
} from "../../src/model/index.ts";

const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]{1,20}$/;
const URN_PREFIX = /^urn:epc:(?:id|class):(?:sgtin|sscc|sgln|pgln|lgtin):(\d+)\./;

function values(e: EpcisEvent, field: (typeof EPC_FIELDS)[number]): string[] {
  const v = e[field];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function offsetOf(time: string): string {
  return /(Z|[+-]\d{2}:\d{2})$/.exec(time)?.[1] ?? "";
}

function allIdentifiers(ds: Dataset): string[] {
  return ds.events.flatMap((e) => [
    ...EPC_FIELDS.flatMap((f) => values(e, f)),
    ...CLASS_LISTS.flatMap((f) => (e[f] ?? []).map((q) => q.epcClass)),
    ...[e.readPoint?.id, e.bizLocation?.id].filter((x): x is string => x !== undefined),
  ]);
}

// Lots and serials as decoded from Digital Links.
function keyedValues(ds: Dataset): string[] {
  return allIdentifiers(ds)
    .filter(isDigitalLink)
    .flatMap((dl) => parseDigitalLink(dl).elements.filter((x) => x.ai === "10" || x.ai === "21"))
    .map((x) => x.value);
}

describe.each([1, 2, 3])("a 200-event dataset, seed %i", (seed) => {
  const ds = generateDataset({ seed, events: 200 });
  const events = ds.events;

  it("has EPCs as URNs and as Digital Links in each of the five EPC fields", () => {
    for (const f of EPC_FIELDS) {
      const found = events.flatMap((e) => values(e, f));
      expect(
        found.some((v) => v.startsWith("urn:epc:id:")),
        `${f} as URN`,
      ).toBe(true);
      expect(
        found.some((v) => v.startsWith("https://id.gs1.org/")),
        `${f} as Digital Link`,
      ).toBe(true);
    }
  });

  it("has classes as lgtin URNs and as /01/…/10/… Digital Links in each of the four quantity lists", () => {
    for (const f of CLASS_LISTS) {
      const found = events.flatMap((e) => (e[f] ?? []).map((q) => q.epcClass));
      expect(
        found.some((v) => v.startsWith("urn:epc:class:lgtin:")),
        `${f} as URN`,
      ).toBe(true);
      expect(
        found.some((v) => /^https:\/\/id\.gs1\.org\/01\/\d{14}\/10\//.test(v)),
        `${f} as DL`,
      ).toBe(true);
    }
  });

  it("uses company prefixes of every length from 7 to 10", () => {
    const lengths = new Set(
      allIdentifiers(ds).flatMap((v) => {
        const cp = URN_PREFIX.exec(v)?.[1];
        return cp === undefined ? [] : [cp.length];
      }),
    );
    expect([...lengths].sort((a, b) => a - b)).toEqual([7, 8, 9, 10]);
  });

  it("has lots and serials of GS1 CSET 82, several of which need percent-encoding", () => {
    const keyed = keyedValues(ds);
    expect(keyed.length).toBeGreaterThan(0);
    for (const v of keyed) expect(v).toMatch(CSET82);
    const specials = new Set(keyed.flatMap((v) => v.match(/[^A-Za-z0-9]/g) ?? []));
    expect(specials.size).toBeGreaterThanOrEqual(6);
    expect(allIdentifiers(ds).some((v) => v.startsWith("https://") && v.includes("%"))).toBe(true);
    expect(allIdentifiers(ds).some((v) => v.startsWith("urn:epc:") && v.includes("%"))).toBe(true);
  });

  it("writes bizSteps bare and as Web URIs", () => {
    const steps = events.map((e) => e.bizStep ?? "");
    expect(steps.some((s) => /^[a-z_]+$/.test(s))).toBe(true);
    expect(steps.some((s) => s.startsWith("https://ref.gs1.org/cbv/BizStep-"))).toBe(true);
  });

  it("writes readPoint and bizLocation as sgln URNs and as /414 Digital Links", () => {
    for (const where of ["readPoint", "bizLocation"] as const) {
      const ids = events.flatMap((e) => (e[where] === undefined ? [] : [e[where].id]));
      expect(
        ids.some((v) => v.startsWith("urn:epc:id:sgln:")),
        `${where} as URN`,
      ).toBe(true);
      expect(
        ids.some((v) => /^https:\/\/id\.gs1\.org\/414\/\d{13}$/.test(v)),
        `${where} as DL`,
      ).toBe(true);
    }
  });

  it("has transformation ids as urn:uuid, with characters to encode, and shared by two events", () => {
    const ids = events.flatMap((e) => (e.transformationID === undefined ? [] : [e.transformationID]));
    expect(ids.some((v) => /^urn:uuid:[0-9a-f-]{36}$/.test(v))).toBe(true);
    expect(ids.some((v) => encodeURIComponent(v) !== v && !v.startsWith("urn:uuid:"))).toBe(true);
    expect(new Set(ids).size).toBeLessThan(ids.length);
  });

  it("writes eventTime at many offsets, with eventTimeZoneOffset matching the offset written", () => {
    const offsets = new Set(events.map((e) => offsetOf(e.eventTime ?? "")));
    expect(offsets.has("Z")).toBe(true);
    expect(offsets.has("+00:00")).toBe(true);
    expect(offsets.size).toBeGreaterThanOrEqual(8);
    for (const e of events) {
      const written = offsetOf(e.eventTime ?? "");
      expect(e.eventTimeZoneOffset).toBe(written === "Z" ? "+00:00" : written);
    }
  });

  it("writes 0, 1, 3, 6 and 9 fractional digits", () => {
    const digits = new Set(events.map((e) => fractionDigitsOf(e.eventTime ?? "")));
    expect([...digits].sort((a, b) => a - b)).toEqual([0, 1, 3, 6, 9]);
  });

  it("has distinct events at exactly the same instant, written differently and at different offsets", () => {
    const sorted = [...events].sort((a, b) => compareTimes(a.eventTime ?? "", b.eventTime ?? ""));
    let differentText = false;
    let differentOffset = false;
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1] as EpcisEvent;
      const b = sorted[i] as EpcisEvent;
      if (!instantsEqual(parseInstant(a.eventTime ?? ""), parseInstant(b.eventTime ?? ""))) continue;
      if (a.eventTime !== b.eventTime) differentText = true;
      if (offsetOf(a.eventTime ?? "") !== offsetOf(b.eventTime ?? "")) differentOffset = true;
    }
    expect(differentText).toBe(true);
    expect(differentOffset).toBe(true);
  });

  it("gives every event a unique eventID, as ni:///sha-256 hashes and as urn:uuid", () => {
    const ids = events.map((e) => e.eventID ?? "");
    expect(new Set(ids).size).toBe(events.length);
    expect(ids.some((v) => /^ni:\/\/\/sha-256;[0-9a-f]{64}\?ver=CBV2\.0$/.test(v))).toBe(true);
    expect(
      ids.some((v) =>
        /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(v),
      ),
    ).toBe(true);
  });

  it("names parties as /417 Digital Links and as pgln URNs", () => {
    const parties = events.flatMap((e) => [
      e["gdst:productOwner"],
      e["cbvmda:informationProvider"],
    ]) as string[];
    expect(parties.some((v) => v.startsWith("urn:epc:id:pgln:"))).toBe(true);
    expect(parties.some((v) => v.startsWith("https://id.gs1.org/417/"))).toBe(true);
  });

  it("has marine, inland and aquaculture lots", () => {
    const methods = new Set(
      events.flatMap((e) => {
        const ilmd = e["ilmd"] as Record<string, unknown> | undefined;
        return ilmd === undefined ? [] : [ilmd["cbvmda:productionMethodForFishAndSeafoodCode"]];
      }),
    );
    expect([...methods].sort()).toEqual(["AQUACULTURE", "INLAND_FISHERY", "MARINE_FISHERY"]);
  });
});
