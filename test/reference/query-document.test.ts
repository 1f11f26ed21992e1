import fc from "fast-check";
import { afterEach, describe, expect, test, vi } from "vitest";
import { generateDataset } from "../../src/generate/index.ts";
import type { EpcisEvent } from "../../src/model/index.ts";
import { queryDocument, queryDocumentText } from "../../src/reference/events/query-document.ts";

// The reference writes an answer from each event's text, kept once per event; it must be the very text the whole
// document would stringify to, whatever the events hold and however often each is served.
describe("queryDocumentText", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const whole = (events: EpcisEvent[], withContext: boolean) =>
    JSON.stringify(queryDocument(events, { withContext }));

  test("writes what JSON.stringify writes for the whole document, served once or again", () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 2, 3, 4, 5) });
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom("cbvmda:lotNumber", "gdst:productOwner", "example:x", ":a"),
    );
    const event = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 })) as fc.Arbitrary<EpcisEvent>;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), fc.boolean(), (events, withContext) => {
        const expected = whole(events, withContext);
        expect(queryDocumentText(events, { withContext })).toBe(expected);
        expect(queryDocumentText(events, { withContext })).toBe(expected);
        expect(queryDocumentText([...events].reverse(), { withContext })).toBe(
          whole([...events].reverse(), withContext),
        );
      }),
    );
  });

  test("declares the prefixes of the events of this answer only, served in any order", () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 2, 3, 4, 5) });
    const events = generateDataset({ seed: 5, events: 40 }).events;
    // The prefixes a list uses, found here without the reference's code: every member name before a colon.
    const used = (list: readonly EpcisEvent[]) =>
      [...new Set([...JSON.stringify(list).matchAll(/"([A-Za-z][\w-]*):[^"]*":/g)].map((m) => m[1]))].sort();
    const declared = (text: string) => {
      const context = (JSON.parse(text) as { "@context": unknown[] })["@context"];
      return Object.keys((context[1] ?? {}) as object).sort();
    };
    const withLot = events.filter((e) => JSON.stringify(e).includes('"cbvmda:'));
    const without = events.filter((e) => used([e]).length === 0);
    expect(withLot.length).toBeGreaterThan(0);
    expect(used(events).length).toBeGreaterThan(0);
    for (const list of [events, withLot, without, events.slice(0, 1), []]) {
      const text = queryDocumentText(list, { withContext: true });
      expect(text).toBe(whole(list, true));
      expect(declared(text)).toEqual(used(list));
    }
  });
});
