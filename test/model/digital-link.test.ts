import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ALPHABETIC_AI_ALIASES,
  alphabeticNameOf,
  CANONICAL_DL_BASE,
  DigitalLinkError,
  formatDigitalLink,
  isDigitalLink,
  parseDigitalLink,
  pathFormOf,
  rebaseDigitalLink,
} from "../../src/model/digital-link.ts";
import { cset82Arb, glnArb, gtinArb, ssccArb, withCheck } from "./arbitraries.ts";
import { sharedPath } from "./paths.ts";

function codeOf(uri: string): string | undefined {
  try {
    parseDigitalLink(uri);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DigitalLinkError);
    expect((error as Error).message.length).toBeGreaterThan(0);
    return (error as DigitalLinkError).code;
  }
}

const GTIN = "09506000134352";

describe("parseDigitalLink", () => {
  it("splits base, elements and query", () => {
    expect(parseDigitalLink(`https://id.gs1.org/01/${GTIN}/10/ABC%2F1?linkType=linkset&q=a+b`)).toEqual({
      base: "https://id.gs1.org",
      elements: [
        { ai: "01", value: GTIN },
        { ai: "10", value: "ABC/1" },
      ],
      query: [
        ["linkType", "linkset"],
        ["q", "a b"],
      ],
    });
    expect(parseDigitalLink(`http://127.0.0.1:8080/resolver/v1/414/0614141123452/254/400`)).toEqual({
      base: "http://127.0.0.1:8080/resolver/v1",
      elements: [
        { ai: "414", value: "0614141123452" },
        { ai: "254", value: "400" },
      ],
      query: [],
    });
    expect(parseDigitalLink("/417/4012345000016").base).toBe("");
  });

  it("pads GTIN-8, GTIN-12 and GTIN-13 to 14 digits", () => {
    expect(parseDigitalLink("https://id.gs1.org/01/96385074").elements[0]?.value).toBe("00000096385074");
    expect(parseDigitalLink("https://id.gs1.org/01/9506000134352").elements[0]?.value).toBe(GTIN);
    const gtin12 = withCheck("61414100003");
    expect(parseDigitalLink(`https://id.gs1.org/01/${gtin12}`).elements[0]?.value).toBe(`00${gtin12}`);
  });

  it("accepts every allowed order of spec 4.2", () => {
    for (const path of [
      `/00/106141412345678908`,
      `/01/${GTIN}`,
      `/01/${GTIN}/10/L1`,
      `/01/${GTIN}/21/S1`,
      `/01/${GTIN}/10/L1/21/S1`,
      `/414/0614141123452`,
      `/414/0614141123452/254/1`,
      `/417/4012345000016`,
    ]) {
      expect(codeOf(`https://id.gs1.org${path}`)).toBeUndefined();
    }
  });

  it.each([
    [`https://id.gs1.org/gtin/${GTIN}`, "alphabetic-ai"],
    [`https://id.gs1.org/01/${GTIN}/lot/L1`, "alphabetic-ai"],
    [`https://id.gs1.org/01/${GTIN}/22/X`, "unknown-ai"],
    [`https://id.gs1.org/8004/0614141ABC`, "unknown-ai"],
    [`https://id.gs1.org/10/L1`, "ai-order"],
    [`https://id.gs1.org/21/S1/01/${GTIN}`, "ai-order"],
    [`https://id.gs1.org/01/${GTIN}/21/S1/10/L1`, "ai-order"],
    [`https://id.gs1.org/01/${GTIN}/10/L1/10/L2`, "ai-order"],
    [`https://id.gs1.org/01/${GTIN}/254/1`, "ai-order"],
    [`https://id.gs1.org/00/106141412345678908/21/1`, "ai-order"],
    [`https://id.gs1.org/417/4012345000016/254/1`, "ai-order"],
    [`https://id.gs1.org/414/0614141123452/10/L1`, "ai-order"],
    [`https://id.gs1.org/01/09506000134`, "length"],
    [`https://id.gs1.org/00/10614141234567890`, "length"],
    [`https://id.gs1.org/414/06141411234`, "length"],
    [`https://id.gs1.org/01/${GTIN}/21/${"A".repeat(21)}`, "length"],
    [`https://id.gs1.org/01/09506000134353`, "check-digit"],
    [`https://id.gs1.org/00/106141412345678907`, "check-digit"],
    [`https://id.gs1.org/417/4012345000017`, "check-digit"],
    [`https://id.gs1.org/01/0950600013435A`, "charset"],
    [`https://id.gs1.org/01/${GTIN}/21/a%20b`, "charset"],
    [`https://id.gs1.org/01/${GTIN}/10/%C3%A9`, "charset"],
    [`https://id.gs1.org/01/${GTIN}/10/a%23b`, "charset"],
    [`https://id.gs1.org/01/${GTIN}/10/%E0%A4%A`, "syntax"],
    [`https://id.gs1.org/01/${GTIN}/10`, "syntax"],
    [`https://id.gs1.org/01/${GTIN}/`, "syntax"],
    [`https://example.com/products/1`, "syntax"],
    [`urn:epc:id:sgtin:0614141.107346.2017`, "syntax"],
  ])("rejects %s as %s", (uri, code) => {
    expect(codeOf(uri)).toBe(code);
  });

  it("applies the lengths of the GS1 syntax dictionary", () => {
    const dictionary = readFileSync(sharedPath("epcis/digital-link/ai/gs1-syntax-dictionary.txt"), "utf8");
    const formatOf = (ai: string) => new RegExp(`^${ai}\\s+[*?\\s]*(\\S+)`, "m").exec(dictionary)?.[1];
    const prefixFor: Record<string, string> = {
      "10": `/01/${GTIN}`,
      "21": `/01/${GTIN}`,
      "254": "/414/0614141123452",
    };
    for (const ai of ["10", "21", "254"]) {
      const max = Number(/^X\.\.(\d+)$/.exec(formatOf(ai) ?? "")?.[1]);
      expect(max).toBeGreaterThan(0);
      expect(codeOf(`https://id.gs1.org${prefixFor[ai]}/${ai}/${"7".repeat(max)}`)).toBeUndefined();
      expect(codeOf(`https://id.gs1.org${prefixFor[ai]}/${ai}/${"7".repeat(max + 1)}`)).toBe("length");
    }
    for (const [ai, key] of [
      ["00", "106141412345678908"],
      ["01", GTIN],
      ["414", "0614141123452"],
      ["417", "4012345000016"],
    ] as const) {
      expect(formatOf(ai)).toBe(`N${key.length},csum,${ai === "00" || ai === "01" ? "gcppos2" : "gcppos1"}`);
    }
  });
});

describe("ALPHABETIC_AI_ALIASES", () => {
  it("names the numeric AIs of spec 4.2 by their short names", () => {
    expect(ALPHABETIC_AI_ALIASES).toMatchObject({
      gtin: "01",
      lot: "10",
      ser: "21",
      sscc: "00",
      gln: "414",
      party: "417",
      glnx: "254",
    });
  });

  it("agrees with the short codes of the GS1 Digital Link toolkit table", () => {
    const table = JSON.parse(
      readFileSync(
        sharedPath("epcis/digital-link/ai/aitable.from-ResolverCE-GS1DigitalLinkToolkit.derived.json"),
        "utf8",
      ),
    ) as { ai: string; shortcode?: string }[];
    for (const entry of table) {
      if (entry.shortcode !== undefined) expect(ALPHABETIC_AI_ALIASES[entry.shortcode]).toBe(entry.ai);
    }
  });
});

describe("formatDigitalLink", () => {
  it("percent-encodes every character outside unreserved and pads GTINs", () => {
    expect(
      formatDigitalLink("https://id.gs1.org/", [
        { ai: "01", value: "96385074" },
        { ai: "21", value: "a/b c%!" },
      ]),
    ).toBe("https://id.gs1.org/01/00000096385074/21/a%2Fb%20c%25%21");
  });

  const elementsArb = fc.oneof(
    fc
      .tuple(gtinArb, fc.option(cset82Arb(), { nil: undefined }), fc.option(cset82Arb(), { nil: undefined }))
      .map(([gtin, lot, serial]) => [
        { ai: "01", value: gtin },
        ...(lot === undefined ? [] : [{ ai: "10", value: lot }]),
        ...(serial === undefined ? [] : [{ ai: "21", value: serial }]),
      ]),
    ssccArb.map((value) => [{ ai: "00", value }]),
    fc
      .tuple(glnArb, fc.option(cset82Arb(), { nil: undefined }))
      .map(([gln, ext]) => [
        { ai: "414", value: gln },
        ...(ext === undefined ? [] : [{ ai: "254", value: ext }]),
      ]),
    glnArb.map((value) => [{ ai: "417", value }]),
  );

  it("round-trips through parseDigitalLink", () => {
    fc.assert(
      fc.property(
        elementsArb,
        fc.constantFrom("https://id.gs1.org", "http://127.0.0.1:3000/dl", "https://example.com/a/b/"),
        (elements, base) => {
          const uri = formatDigitalLink(base, elements);
          expect(uri).not.toMatch(/[^A-Za-z0-9\-._~%/:]/);
          expect(parseDigitalLink(uri)).toEqual({ base: base.replace(/\/$/, ""), elements, query: [] });
          expect(isDigitalLink(uri)).toBe(true);
        },
      ),
    );
  });
});

describe("rebaseDigitalLink", () => {
  it("replaces the base and keeps path and query (spec 4.2)", () => {
    expect(
      rebaseDigitalLink(`${CANONICAL_DL_BASE}/01/${GTIN}/10/A%2FB?linkType=linkset`, "http://127.0.0.1:9/r/"),
    ).toBe(`http://127.0.0.1:9/r/01/${GTIN}/10/A%2FB?linkType=linkset`);
    expect(rebaseDigitalLink(`https://brand.example/x/417/4012345000016`, CANONICAL_DL_BASE)).toBe(
      `${CANONICAL_DL_BASE}/417/4012345000016`,
    );
  });

  it("refuses a URI that is not a Digital Link", () => {
    expect(() => rebaseDigitalLink("https://example.com/about", CANONICAL_DL_BASE)).toThrow(DigitalLinkError);
  });
});

describe("isDigitalLink", () => {
  it("needs an http(s) URI with a valid path", () => {
    expect(isDigitalLink(`https://id.gs1.org/01/${GTIN}`)).toBe(true);
    expect(isDigitalLink(`/01/${GTIN}`)).toBe(false);
    expect(isDigitalLink(`https://id.gs1.org/gtin/${GTIN}`)).toBe(false);
    expect(isDigitalLink(`ftp://id.gs1.org/01/${GTIN}`)).toBe(false);
    expect(isDigitalLink(`https://id.gs1.org/01/${withCheck("0950600013435")}`)).toBe(true);
  });
});

function errorOf(uri: string): DigitalLinkError {
  try {
    parseDigitalLink(uri);
  } catch (error) {
    if (error instanceof DigitalLinkError) return error;
    throw error;
  }
  throw new Error(`expected "${uri}" to be rejected`);
}

describe("parseDigitalLink edge cases", () => {
  it("reads query pairs without a value, without a key, with + for space, and skips empty pairs", () => {
    expect(parseDigitalLink(`https://id.gs1.org/01/${GTIN}?linkType&&=x&a+b=1+2&`).query).toEqual([
      ["linkType", ""],
      ["", "x"],
      ["a b", "1 2"],
    ]);
  });

  it("tolerates white space around the URI and a fragment after the query", () => {
    expect(parseDigitalLink(`  https://id.gs1.org/01/${GTIN}?linkType=all#top \n`)).toEqual({
      base: "https://id.gs1.org",
      elements: [{ ai: "01", value: GTIN }],
      query: [["linkType", "all"]],
    });
  });

  it("names the part with a broken percent escape", () => {
    expect(errorOf(`https://id.gs1.org/01/${GTIN}?%zz=1`).message).toContain("query key");
    expect(errorOf(`https://id.gs1.org/01/${GTIN}?a=%zz`).message).toContain("query value");
    expect(errorOf(`https://id.gs1.org/01/${GTIN}/10/%E0%A4%A`).message).toContain("AI 10 value");
  });

  it("tells an AI without a value from an AI with an empty value", () => {
    const odd = errorOf(`https://id.gs1.org/01/${GTIN}/`);
    expect([odd.code, odd.message]).toEqual(["syntax", expect.stringContaining("an AI without a value")]);
    const empty = errorOf(`https://id.gs1.org/01/${GTIN}/10/`);
    expect([empty.code, empty.message]).toEqual(["syntax", expect.stringContaining("empty value for AI 10")]);
  });

  it("tells a URI that is not http(s) or a path from one whose path has no AI", () => {
    expect(errorOf("").message).toContain("not an http(s) URI or an absolute path");
    expect(errorOf(`id.gs1.org/01/${GTIN}`).message).toContain("not an http(s) URI or an absolute path");
    expect(errorOf(`https://id.gs1.org/01/${GTIN}#a\nb`).message).toContain(
      "not an http(s) URI or an absolute path",
    );
    expect(errorOf("?linkType=all").message).toContain("not an http(s) URI or an absolute path");
    expect(errorOf("https://id.gs1.org").message).toContain("no application identifier");
    expect(errorOf("https://id.gs1.org?linkType=all").message).toContain("no application identifier");
  });

  it("calls a segment unknown-ai only when it is two to four digits", () => {
    expect(codeOf("https://example.com/p/x22/1")).toBe("syntax");
    expect(codeOf("https://example.com/products/12345")).toBe("syntax");
    expect(codeOf("https://example.com/products/7003/1")).toBe("unknown-ai");
    const misplaced = errorOf(`https://id.gs1.org/01/${GTIN}/foo/1`);
    expect([misplaced.code, misplaced.message]).toEqual([
      "syntax",
      expect.stringContaining('"foo" where an application identifier belongs'),
    ]);
  });

  it("rejects a key with a non-digit anywhere, and says which lengths a GTIN may have", () => {
    expect(codeOf("https://id.gs1.org/01/A9506000134352")).toBe("charset");
    expect(errorOf("https://id.gs1.org/01/95060001343").message).toContain("8 or 12 or 13 or 14");
  });

  it("lists the qualifiers allowed after the primary key, or none", () => {
    expect(errorOf("https://id.gs1.org/00/106141412345678908/21/1").message).toContain(
      "allowed in order: none",
    );
    expect(errorOf("https://id.gs1.org/417/4012345000016/254/1").message).toContain("allowed in order: none");
    expect(errorOf("https://id.gs1.org/414/0614141123452/21/1").message).toContain("allowed in order: 254");
    expect(errorOf(`https://id.gs1.org/01/${GTIN}/21/S1/10/L1`).message).toContain(
      "allowed in order: 10, 21",
    );
  });

  it("throws errors named DigitalLinkError", () => {
    expect(errorOf("https://id.gs1.org/gtin/1").name).toBe("DigitalLinkError");
  });
});

describe("formatDigitalLink and rebaseDigitalLink edge cases", () => {
  it("writes every byte below 0x10 with two hex digits and drops every trailing slash of the base", () => {
    expect(formatDigitalLink("https://r.example//", [{ ai: "21", value: "\t\n" }])).toBe(
      "https://r.example/21/%09%0A",
    );
  });

  it("drops an empty query string", () => {
    expect(rebaseDigitalLink(`https://id.gs1.org/01/${GTIN}?`, "https://r.example")).toBe(
      `https://r.example/01/${GTIN}`,
    );
  });
});

describe("isDigitalLink edge cases", () => {
  it("needs the scheme at the start, not inside a path prefix", () => {
    expect(isDigitalLink(`/r/https://id.gs1.org/01/${GTIN}`)).toBe(false);
  });

  it("lets errors other than a rejected Digital Link through", () => {
    expect(() => isDigitalLink(42 as unknown as string)).toThrow(TypeError);
  });
});

describe("pathFormOf", () => {
  it("names the six forms and nothing else", () => {
    expect(
      pathFormOf([
        { ai: "01", value: "09506000134352" },
        { ai: "10", value: "L1" },
      ]),
    ).toBe("01/10");
    expect(
      pathFormOf([
        { ai: "414", value: "9506000000014" },
        { ai: "254", value: "x" },
      ]),
    ).toBeUndefined();
    expect(pathFormOf([])).toBeUndefined();
  });
});

describe("alphabeticNameOf", () => {
  it("names a numeric AI by its first short name, and nothing else", () => {
    expect(alphabeticNameOf("01")).toBe("gtin");
    expect(alphabeticNameOf("417")).toBe("party");
    expect(alphabeticNameOf("254")).toBe("glnx");
    expect(alphabeticNameOf("9999")).toBeUndefined();
    expect(alphabeticNameOf("gtin")).toBeUndefined();
  });
});
