import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeQuery, parseQueryString, splitListValue } from "../../src/model/query-string.ts";
import type { EventQuery } from "../../src/model/types.ts";
import { LIST_PARAMETERS, QUERY_PARAMETERS, TIME_PARAMETERS } from "../../src/model/types.ts";

describe("encodeQuery (spec 4.1 rules 1-2)", () => {
  it("writes one key per parameter, in order, with list values joined by %7C", () => {
    const text = encodeQuery({
      EQ_bizStep: ["shipping", "urn:epcglobal:cbv:bizstep:receiving"],
      GE_eventTime: "2024-01-01T00:00:00.5+01:00",
      MATCH_anyEPC: ["https://id.gs1.org/01/09506000134352/21/a&b c"],
    });
    expect(text).toBe(
      "GE_eventTime=2024-01-01T00%3A00%3A00.5%2B01%3A00" +
        "&MATCH_anyEPC=https%3A%2F%2Fid.gs1.org%2F01%2F09506000134352%2F21%2Fa%26b%20c" +
        "&EQ_bizStep=shipping%7Curn%3Aepcglobal%3Acbv%3Abizstep%3Areceiving",
    );
    expect(encodeQuery({})).toBe("");
    expect(encodeQuery({ EQ_bizLocation: [] })).toBe("EQ_bizLocation=");
  });
});

describe("parseQueryString", () => {
  it("accepts a raw pipe and an encoded one, form-decodes + and tolerates a leading ?", () => {
    expect(parseQueryString("?EQ_bizStep=a|b%7Cc&EQ_transformationID=x+y%2By").query).toEqual({
      EQ_bizStep: ["a", "b", "c"],
      EQ_transformationID: ["x y+y"],
    });
  });

  it("reports repeated, unknown and empty keys, keeping the first occurrence", () => {
    expect(
      parseQueryString(
        "EQ_bizStep=a&EQ_bizStep=b&EQ_bizStep=c&eventType=ObjectEvent&GE_eventTime=&MATCH_anyEPC=",
      ),
    ).toEqual({
      query: { EQ_bizStep: ["a"], MATCH_anyEPC: [] },
      repeated: ["EQ_bizStep"],
      unknown: ["eventType"],
      empty: ["GE_eventTime", "MATCH_anyEPC"],
    });
  });

  it("keeps a broken percent escape as written", () => {
    expect(parseQueryString("EQ_transformationID=100%25%zz%C3%A9").query).toEqual({
      EQ_transformationID: ["100%%zzé"],
    });
    // %C3 alone is not UTF-8, so that run stays as written too.
    expect(parseQueryString("EQ_transformationID=%C3%zz%41").query).toEqual({
      EQ_transformationID: ["%C3%zzA"],
    });
  });

  it("skips empty pairs, and reads a key without = as empty and an = without a key as unknown", () => {
    expect(parseQueryString("&EQ_bizStep&&=x&")).toEqual({
      query: { EQ_bizStep: [] },
      repeated: [],
      unknown: [""],
      empty: ["EQ_bizStep"],
    });
  });

  it("splits list values on the pipe", () => {
    expect(splitListValue("a||b")).toEqual(["a", "", "b"]);
    expect(splitListValue("")).toEqual([]);
  });

  // Values without "|" (the separator itself), including reserved characters, "&", "%", spaces and unicode.
  const valueArb = fc
    .oneof(
      fc.string({ unit: "grapheme", minLength: 1 }),
      fc.string({ unit: fc.constantFrom(..."&%+ =?#/:;,@!$'()*[]~é€😀a"), minLength: 1 }),
    )
    .filter((v) => !v.includes("|"));
  const queryArb: fc.Arbitrary<EventQuery> = fc.record(
    Object.fromEntries([
      ...TIME_PARAMETERS.map((k) => [k, valueArb] as const),
      ...LIST_PARAMETERS.map((k) => [k, fc.array(valueArb, { maxLength: 4 })] as const),
    ]),
    { requiredKeys: [] },
  ) as fc.Arbitrary<EventQuery>;

  it("inverts encodeQuery", () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const text = encodeQuery(q);
        expect(text).not.toContain("|");
        const parsed = parseQueryString(text);
        expect(parsed.query).toEqual(q);
        expect(parsed.repeated).toEqual([]);
        expect(parsed.unknown).toEqual([]);
        expect(text.split("&").filter((p) => p !== "").length).toBe(Object.keys(q).length);
      }),
    );
  });

  it("detects any repeated key", () => {
    fc.assert(
      fc.property(queryArb, fc.constantFrom(...QUERY_PARAMETERS), valueArb, (q, key, extra) => {
        const text = [encodeQuery(q), `${key}=${encodeURIComponent(extra)}`]
          .filter((p) => p !== "")
          .join("&");
        const parsed = parseQueryString(text);
        expect(parsed.repeated).toEqual(q[key] === undefined ? [] : [key]);
        if (q[key] !== undefined) expect(parsed.query[key]).toEqual(q[key]);
      }),
    );
  });
});
