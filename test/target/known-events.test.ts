// The reader that gives back the baseline's own object for an event served exactly as before: whatever the body,
// what it gives is what JSON.parse gives (or it throws what JSON.parse throws), with the baseline's object only
// where the served event is written member for member as the baseline holds it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonIdentical } from "../../src/model/json-equal.ts";
import type { EpcisEvent } from "../../src/model/types.ts";
import { KnownEventReader } from "../../src/target/known-events.ts";

function event(n: number, extra: Record<string, unknown> = {}): EpcisEvent {
  return {
    type: "ObjectEvent",
    eventTime: "2026-01-01T00:00:00.000Z",
    eventTimeZoneOffset: "+00:00",
    eventID: `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    action: "OBSERVE",
    epcList: [`urn:epc:id:sgtin:0614141.107346.${n}`],
    ...extra,
  } as EpcisEvent;
}

function documentText(list: string, around: { before?: string; after?: string } = {}): string {
  return (
    `{"type":"EPCISQueryDocument","schemaVersion":"2.0",${around.before ?? ""}"epcisBody":{"queryResults":` +
    `{"queryName":"SimpleEventQuery","resultsBody":{"eventList":${list}}}}${around.after ?? ""}}`
  );
}

function byIdOf(events: readonly EpcisEvent[]): Map<string, EpcisEvent> {
  return new Map(events.map((e) => [e.eventID as string, e]));
}

/** What the reader gives or throws, beside what JSON.parse gives or throws, for the same bytes. */
function outcome(read: () => unknown): { value: string } | { error: string } {
  try {
    return { value: JSON.stringify(read()) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function expectAsJsonParse(reader: KnownEventReader, body: Buffer): void {
  expect(outcome(() => reader.parse(body))).toEqual(outcome(() => JSON.parse(body.toString("utf8"))));
}

function listOf(value: unknown): unknown[] {
  return (value as { epcisBody: { queryResults: { resultsBody: { eventList: unknown[] } } } }).epcisBody
    .queryResults.resultsBody.eventList;
}

const KNOWN = [1, 2, 3].map((n) => event(n));

describe("KnownEventReader", () => {
  it("gives the baseline's object for an event served as the baseline holds it, first read and later", () => {
    const reader = new KnownEventReader(byIdOf(KNOWN));
    const changed = { ...KNOWN[1], action: "ADD" };
    const body = Buffer.from(documentText(JSON.stringify([KNOWN[0], changed, KNOWN[2], event(9)])));
    for (const round of [1, 2]) {
      const list = listOf(reader.parse(body));
      expect(list[0], `round ${round}`).toBe(KNOWN[0]);
      expect(list[1]).not.toBe(KNOWN[1]);
      expect(list[1]).toEqual(changed);
      expect(list[2]).toBe(KNOWN[2]);
      expect(list[3]).toEqual(event(9));
      expectAsJsonParse(reader, body);
    }
    // Two texts are remembered: those of the first and third events.
    expect(reader.remembered).toBe(2);
    // A body read whole by JSON.parse, for the backslash outside its list: its events are compared one by one.
    const escaped = documentText(`[${JSON.stringify(KNOWN[0])},${JSON.stringify(changed)}]`, {
      before: `"note":"\\u0041",`,
    });
    const whole = listOf(reader.parse(Buffer.from(escaped)));
    expect(whole[0]).toBe(KNOWN[0]);
    expect(whole[1]).not.toBe(KNOWN[1]);
    expect(whole[1]).toEqual(changed);
    expectAsJsonParse(reader, Buffer.from(escaped));
  });

  it("gives an event written otherwise than the baseline holds it as served, however often it comes", () => {
    const reader = new KnownEventReader(byIdOf(KNOWN));
    const reordered = Object.fromEntries(Object.entries(KNOWN[0] as object).reverse());
    const spaced = JSON.stringify(KNOWN[1], null, 1);
    const body = Buffer.from(documentText(`[${JSON.stringify(reordered)},${spaced}]`));
    for (let round = 0; round < 2; round++) {
      const [first, second] = listOf(reader.parse(body));
      expect(first).not.toBe(KNOWN[0]);
      expect(Object.keys(first as object)).toEqual(Object.keys(KNOWN[0] as object).reverse());
      // Whitespace inside an event is not the baseline's writing, but the event is: the same object.
      expect(second).toBe(KNOWN[1]);
    }
  });

  it("finds where an event ends past quotes, backslashes, braces and brackets in its strings", () => {
    const awkward = [
      event(1, { "ext:n": 'a"}b\\', "ext:m": [{ "x]": "{[" }] }),
      event(2, { "ext:n": '\\"', "ext:o": { "}": "\u0000]" } }),
    ];
    const reader = new KnownEventReader(byIdOf(awkward));
    const body = Buffer.from(documentText(JSON.stringify(awkward)));
    for (let round = 0; round < 2; round++) {
      const list = listOf(reader.parse(body));
      for (const [i, e] of awkward.entries()) expect(list[i]).toBe(e);
    }
    expect(reader.remembered).toBe(2);
  });

  it("tells apart events whose first bytes are the same", () => {
    const long = "x".repeat(200);
    const known = [event(1, { "ext:a": long, "ext:b": 1 }), event(2, { "ext:a": long, "ext:b": 2 })];
    // Both begin alike for far more than the bytes that find a remembered text.
    const sameStart = known.map((e) => ({ "ext:a": long, ...e }));
    const reader = new KnownEventReader(byIdOf(sameStart));
    const body = Buffer.from(documentText(JSON.stringify(sameStart)));
    reader.parse(body);
    const swapped = Buffer.from(documentText(JSON.stringify([sameStart[1], sameStart[0]])));
    const [first, second] = listOf(reader.parse(swapped));
    expect(first).toBe(sameStart[1]);
    expect(second).toBe(sameStart[0]);
    const tampered = { ...sameStart[0], "ext:b": 3 };
    const [third] = listOf(reader.parse(Buffer.from(documentText(JSON.stringify([tampered])))));
    expect(third).not.toBe(sameStart[0]);
    expect(third).toEqual(tampered);
  });

  // Bodies that look like a query document around one eventList but are not what a plain reading of them makes:
  // each is read as JSON.parse reads it, after the reader has learned every known event's text.
  const known = JSON.stringify(KNOWN[0]);
  const tricky: Array<[string, string]> = [
    [
      "a second eventList member, which JSON.parse takes",
      `{"epcisBody":{"eventList":[${known}],"eventList":[]}}`,
    ],
    [
      "an eventList inside an event, before the document's own",
      `{"a":[{"eventList":[${known}]}],"epcisBody":{"eventList":[${known}]}}`,
    ],
    [
      "an eventList member inside an event of the list",
      documentText(`[${known},{"eventList":"tracecheck:event-list","eventID":"x"}]`),
    ],
    [
      "a second eventList member whose name is escaped",
      `{"epcisBody":{"eventList":[${known}],"event\\u004cist":[]}}`,
    ],
    [
      "an eventList inside a string before the real one",
      documentText(`[${known}]`, { before: `"note":"\\"eventList\\":[${known.replaceAll('"', '\\"')}]",` }),
    ],
    ["a byte order mark before the document", `\uFEFF${documentText(`[${known}]`)}`],
    ["a comma after the last event", documentText(`[${known},]`)],
    ["two events without a comma", documentText(`[${known}${known}]`)],
    ["a known event followed by a stray letter", documentText(`[${known}x]`)],
    ["known events apart by a letter", documentText(`[${known}x${known}]`)],
    [
      "a second eventList member holding the reader's placeholder",
      `{"epcisBody":{"eventList":[${known}],"eventList":"tracecheck:event-list"}}`,
    ],
    [
      "a second eventList member, its name escaped, holding the reader's placeholder",
      `{"epcisBody":{"eventList":[${known}],"event\\u004cist":"tracecheck:event-list"}}`,
    ],
    ["an element that is not an object", documentText(`[${known},1,null,"e"]`)],
    ["an event cut short", documentText(`[${known.slice(0, -1)}]`)],
    ["an event with a trailing comma inside", documentText(`[${known.slice(0, -1)},}]`)],
    ["a body cut short", documentText(`[${known}]`).slice(0, -2)],
    [
      "events with brackets, braces and escaped quotes in strings",
      documentText(JSON.stringify([event(4, { "ext:n": '}]"\\{[', "ext:m": [{ a: ["]"] }] }), KNOWN[1]])),
    ],
    ["every kind of whitespace around the events", documentText(` \t\r\n[ \n${known}\t,\r\n${known} ]\n `)],
    ["whitespace JSON does not allow", documentText(`[\u00a0${known}]`)],
    ["the eventList elsewhere than a query document has it", `{"eventList":[${known}]}`],
    [
      "a parent member written again after the one holding the list",
      `{"epcisBody":{"queryResults":{"resultsBody":{"eventList":[${known}]}},"queryResults":{}}}`,
    ],
    ["no eventList at all", `{"epcisBody":{}}`],
    ["an eventList that is not an array", `{"epcisBody":{"eventList":{}}}`],
    ["an empty eventList", documentText(`[ ]`)],
    [
      "a string holding the reader's placeholder",
      documentText(`[${known}]`, { before: `"x":"tracecheck:event-list",` }),
    ],
  ];

  it.each(tricky)("reads %s as JSON.parse does", (_name, text) => {
    const reader = new KnownEventReader(byIdOf(KNOWN));
    reader.parse(Buffer.from(documentText(JSON.stringify(KNOWN))));
    expect(reader.remembered).toBe(KNOWN.length);
    expectAsJsonParse(reader, Buffer.from(text));
  });

  it("reads bytes that are not UTF-8 as decoding them whole does", () => {
    const reader = new KnownEventReader(byIdOf(KNOWN));
    const known = Buffer.from(JSON.stringify(KNOWN[0]));
    const invalid = Buffer.from(JSON.stringify(event(5, { "ext:n": "AB" })));
    // The two letters become a lone lead byte and a stray continuation byte.
    const at = invalid.indexOf("AB");
    invalid[at] = 0xe2;
    invalid[at + 1] = 0x82;
    const [before, after] = documentText("@").split("@") as [string, string];
    const body = Buffer.concat([
      Buffer.from(`${before}[`),
      known,
      Buffer.from(","),
      invalid,
      Buffer.from(`]${after}`),
    ]);
    reader.parse(body);
    expectAsJsonParse(reader, body);
    expect(listOf(reader.parse(body))[0]).toBe(KNOWN[0]);
  });

  it("remembers no more bytes than its limit, and reads the same without them", () => {
    const reader = new KnownEventReader(byIdOf(KNOWN), { maxBytes: 0, maxPerKey: 8 });
    const body = Buffer.from(documentText(JSON.stringify(KNOWN)));
    for (let round = 0; round < 2; round++) {
      const list = listOf(reader.parse(body));
      for (const [i, e] of KNOWN.entries()) expect(list[i]).toBe(e);
    }
    expect(reader.remembered).toBe(0);
    const one = new KnownEventReader(byIdOf(KNOWN), {
      maxBytes: JSON.stringify(KNOWN[0]).length,
      maxPerKey: 8,
    });
    one.parse(body);
    expect(one.remembered).toBe(1);
  });

  it("remembers no more texts under one key than its limit", () => {
    const tail = "z".repeat(120);
    // Alike for their first hundred and more bytes.
    const alike = [1, 2, 3].map((n) => ({ "ext:pad": tail, ...event(n) }));
    const reader = new KnownEventReader(byIdOf(alike), { maxBytes: 1 << 20, maxPerKey: 2 });
    const body = Buffer.from(documentText(JSON.stringify(alike)));
    reader.parse(body);
    expect(reader.remembered).toBe(2);
    const list = listOf(reader.parse(body));
    for (const [i, e] of alike.entries()) expect(list[i]).toBe(e);
  });

  const member = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom("}", "]", "{", "[", '"', "\\", ",", ":", "eventList", "\u2028", "é", "\uD83D\uDE00"),
  );
  const served = fc.record({
    n: fc.integer({ min: 0, max: 5 }),
    extra: fc.dictionary(member, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    reorder: fc.boolean(),
    indent: fc.constantFrom(undefined, 1, "\t"),
  });

  it("gives what JSON.parse gives for any answer of known and unknown events, written any way", () => {
    fc.assert(
      fc.property(
        fc.array(served, { maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 6 }),
        fc.constantFrom("", " ", "\n  ", "\t"),
        // An escape outside the list has the body read whole.
        fc.constantFrom("", `"note":"\\u0041",`),
        (items, knownNumbers, space, before) => {
          const baseline = [...new Set(knownNumbers)].map((n) => event(n, { "ext:v": n }));
          const reader = new KnownEventReader(byIdOf(baseline));
          const texts = items.map(({ n, extra, reorder, indent }) => {
            const base = baseline.find((e) => e.eventID === event(n).eventID);
            const value =
              base !== undefined && Object.keys(extra).length === 0 ? base : { ...event(n), ...extra };
            const ordered = reorder ? Object.fromEntries(Object.entries(value).reverse()) : value;
            return JSON.stringify(ordered, null, indent);
          });
          const list = `[${space}${texts.join(`${space},${space}`)}${space}]`;
          const body = Buffer.from(documentText(list, { before }));
          for (let round = 0; round < 2; round++) {
            const value = reader.parse(body);
            expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(body.toString("utf8"))));
            listOf(value).forEach((got, i) => {
              const known = baseline.find((e) => e.eventID === (got as EpcisEvent).eventID);
              const asServed = JSON.parse(texts[i] as string) as unknown;
              // The baseline's object exactly where the served event is written as the baseline holds it, whether
              // the body was read around its list or whole.
              expect(got === known).toBe(known !== undefined && jsonIdentical(known, asServed));
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
