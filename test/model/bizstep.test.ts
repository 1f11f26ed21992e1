import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bizStepForms, bizStepsEqual, CBV_BIZSTEPS, canonicalBizStep } from "../../src/model/bizstep.ts";
import { runOracle } from "../../src/model/oracle.ts";
import type { EpcisEvent } from "../../src/model/types.ts";
import { sharedPath } from "./paths.ts";

interface VocabEntry {
  bare: string;
  urn: string;
  webUri: string;
}

const vocab = JSON.parse(readFileSync(sharedPath("epcis/cbv/cbv-vocab.derived.json"), "utf8")) as {
  bizStep: VocabEntry[];
};

describe("CBV_BIZSTEPS", () => {
  it("holds exactly the bizStep terms of the CBV vocabulary", () => {
    expect([...CBV_BIZSTEPS].sort()).toEqual(vocab.bizStep.map((e) => e.bare).sort());
  });

  it("writes each term's URN and web URI as the vocabulary does", () => {
    for (const entry of vocab.bizStep) {
      expect(bizStepForms(entry.bare)).toEqual({ short: entry.bare, urn: entry.urn, webUri: entry.webUri });
    }
  });
});

describe("canonicalBizStep", () => {
  it("gives the bare word for each of the three forms (spec 2.1)", () => {
    for (const step of CBV_BIZSTEPS) {
      const { short, urn, webUri } = bizStepForms(step);
      expect([canonicalBizStep(short), canonicalBizStep(urn), canonicalBizStep(webUri)]).toEqual([
        step,
        step,
        step,
      ]);
    }
  });

  it("maps names outside the list written in the CBV shapes to their bare word", () => {
    expect(canonicalBizStep("urn:epcglobal:cbv:bizstep:fishing")).toBe("fishing");
    expect(canonicalBizStep("https://ref.gs1.org/cbv/BizStep-fishing")).toBe("fishing");
  });

  it("lets any other value stand for itself", () => {
    expect(canonicalBizStep("https://example.com/steps/shipping")).toBe("https://example.com/steps/shipping");
    expect(canonicalBizStep("urn:gdst:bizstep:farming")).toBe("urn:gdst:bizstep:farming");
    expect(canonicalBizStep("urn:epcglobal:cbv:bizstep:")).toBe("urn:epcglobal:cbv:bizstep:");
    // Only a whole step name in the CBV shape is recognised, not a name with a stray character at either end.
    for (const odd of ["a shipping", "shipping a", "ship ping"]) {
      expect(canonicalBizStep(`urn:epcglobal:cbv:bizstep:${odd}`)).toBe(`urn:epcglobal:cbv:bizstep:${odd}`);
      expect(canonicalBizStep(`https://ref.gs1.org/cbv/BizStep-${odd}`)).toBe(
        `https://ref.gs1.org/cbv/BizStep-${odd}`,
      );
    }
    expect(bizStepsEqual("https://example.com/steps/shipping", "shipping")).toBe(false);
    expect(bizStepsEqual("shipping", "receiving")).toBe(false);
    expect(
      bizStepsEqual("urn:epcglobal:cbv:bizstep:shipping", "https://ref.gs1.org/cbv/BizStep-shipping"),
    ).toBe(true);
  });
});

describe("the three forms through the oracle", () => {
  const forms = ["short", "urn", "webUri"] as const;

  it("select the same events whichever form the query and the events use (spec 4.1 rule 3)", () => {
    // Built inside the test so that a broken step list fails this test rather than the loading of the file.
    const step = fc.constantFrom(...CBV_BIZSTEPS);
    const form = fc.constantFrom(...forms);
    fc.assert(
      fc.property(
        fc.array(fc.record({ step, form, present: fc.boolean() }), { maxLength: 10 }),
        step,
        fc.tuple(form, form),
        (specs, queried, [f1, f2]) => {
          const events: EpcisEvent[] = specs.map((s, k) => ({
            type: "ObjectEvent",
            eventID: `urn:uuid:${k}`,
            ...(s.present ? { bizStep: bizStepForms(s.step)[s.form] } : {}),
          }));
          const ids = (value: string) => runOracle(events, { EQ_bizStep: [value] }).map((e) => e.eventID);
          const first = ids(bizStepForms(queried)[f1]);
          expect(ids(bizStepForms(queried)[f2])).toEqual(first);
          expect(first).toEqual(
            specs.flatMap((s, k) => (s.present && s.step === queried ? [`urn:uuid:${k}`] : [])),
          );
        },
      ),
    );
  });
});
