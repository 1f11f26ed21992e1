import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalId,
  classMatches,
  digitalLinkToEpcUrn,
  epcUrnToDigitalLink,
  gtinOf,
  idsEqual,
  isClassPattern,
} from "../../src/model/identifiers.ts";
import { idValue, PARTY_FIELDS } from "../../src/model/types.ts";
import { cpLengthArb, cset82Arb, glnArb, gtinArb, ssccArb } from "./arbitraries.ts";

const DL = "https://id.gs1.org";

// Pairs from the EPC Tag Data Standard and the GS1 EPCIS 2.0 examples (URN and Digital Link editions).
const URN_PAIRS: [string, string][] = [
  ["urn:epc:id:sgtin:0614141.812345.6789", `${DL}/01/80614141123458/21/6789`],
  ["urn:epc:id:sscc:0614141.1234567890", `${DL}/00/106141412345678908`],
  ["urn:epc:id:sgln:0614141.12345.400", `${DL}/414/0614141123452/254/400`],
  ["urn:epc:id:sgln:0614141.12345.0", `${DL}/414/0614141123452`],
  ["urn:epc:id:pgln:0614141.12345", `${DL}/417/0614141123452`],
  ["urn:epc:class:lgtin:4012345.012345.998877", `${DL}/01/04012345123456/10/998877`],
  ["urn:epc:class:lgtin:0614141.077777.987", `${DL}/01/00614141777778/10/987`],
  ["urn:epc:idpat:sgtin:4012345.098765.*", `${DL}/01/04012345987652`],
  ["urn:epc:idpat:sgtin:4012345.066666.*", `${DL}/01/04012345666663`],
  ["urn:epc:id:sgtin:0614141.812345.A%2FB%25", `${DL}/01/80614141123458/21/A%2FB%25`],
  ["urn:epc:id:pgln:061414112345.", `${DL}/417/0614141123452`],
];

describe("epcUrnToDigitalLink", () => {
  it.each(URN_PAIRS)("%s → %s", (urn, dl) => {
    expect(epcUrnToDigitalLink(urn)).toBe(dl);
  });

  it.each(URN_PAIRS)("takes %s whole: nothing before it, no second line after it", (urn) => {
    expect(epcUrnToDigitalLink(`urn:x:${urn}`)).toBeUndefined();
    expect(epcUrnToDigitalLink(`${urn}\nx`)).toBeUndefined();
  });

  it.each([
    "urn:epc:id:sgtin:0614141.81234.6789",
    "urn:epc:id:sgtin:06141.8123456.6789",
    "urn:epc:id:sgtin:0614141.812345.%ZZ",
    "urn:epc:id:sgtin:0614141.812345.a b",
    "urn:epc:id:giai:0614141.12345",
    "urn:epc:idpat:sgtin:0614141.*.*",
    // Company prefixes of 5 or 13 digits, with the right total of digits.
    "urn:epc:id:sgtin:06141.81234567.1",
    "urn:epc:class:lgtin:06141.81234567.1",
    "urn:epc:idpat:sgtin:06141.81234567.*",
    "urn:epc:id:sscc:06141.123456789012",
    "urn:epc:id:sscc:0614141234567.1234",
    "urn:epc:id:sgln:06141.1234567.0",
    "urn:epc:id:pgln:06141.1234567",
    // The right prefix with one digit too few in the reference.
    "urn:epc:class:lgtin:0614141.12345.1",
    "urn:epc:id:sgln:0614141.1234.0",
    "urn:gdst:example.com:product:class:1",
    "https://id.gs1.org/01/80614141123458",
  ])("has no Digital Link form for %s", (value) => {
    expect(epcUrnToDigitalLink(value)).toBeUndefined();
  });

  it("accepts company prefixes of 6 and 12 digits and white space around the URN", () => {
    expect(epcUrnToDigitalLink("urn:epc:id:sgtin:061414.8123456.1")).toBe(`${DL}/01/80614141234567/21/1`);
    expect(epcUrnToDigitalLink("urn:epc:id:sgtin:061414112345.8.1")).toBe(`${DL}/01/80614141123458/21/1`);
    expect(epcUrnToDigitalLink(" urn:epc:id:sscc:0614141.1234567890\n")).toBe(`${DL}/00/106141412345678908`);
  });
});

describe("digitalLinkToEpcUrn", () => {
  it("inverts the conversion given the company prefix length", () => {
    expect(digitalLinkToEpcUrn(`${DL}/01/80614141123458/21/A%2FB`, 7)).toBe(
      "urn:epc:id:sgtin:0614141.812345.A%2FB",
    );
    expect(digitalLinkToEpcUrn(`${DL}/414/0614141123452`, 7)).toBe("urn:epc:id:sgln:0614141.12345.0");
    expect(digitalLinkToEpcUrn(`${DL}/417/0614141123452`, 12)).toBe("urn:epc:id:pgln:061414112345.");
    expect(digitalLinkToEpcUrn(`${DL}/01/04012345987652`, 7)).toBe("urn:epc:idpat:sgtin:4012345.098765.*");
    expect(digitalLinkToEpcUrn(`${DL}/01/80614141123458/21/1`, 5)).toBeUndefined();
    expect(digitalLinkToEpcUrn(`${DL}/01/80614141123458/21/1`, 13)).toBeUndefined();
    expect(digitalLinkToEpcUrn(`${DL}/01/80614141123458/21/1`, 7.5)).toBeUndefined();
    expect(digitalLinkToEpcUrn(`${DL}/01/80614141123458/21/1`, 12)).toBe("urn:epc:id:sgtin:061414112345.8.1");
    expect(digitalLinkToEpcUrn(`${DL}/01/80614141123458/10/L/21/1`, 7)).toBeUndefined();
    expect(digitalLinkToEpcUrn("urn:epc:id:sscc:0614141.1234567890", 7)).toBeUndefined();
  });

  const dlArb = fc.oneof(
    fc.tuple(gtinArb, cset82Arb()).map(([g, s]) => `${DL}/01/${g}/21/${encodeURIComponent(s)}`),
    fc.tuple(gtinArb, cset82Arb()).map(([g, l]) => `${DL}/01/${g}/10/${encodeURIComponent(l)}`),
    gtinArb.map((g) => `${DL}/01/${g}`),
    ssccArb.map((s) => `${DL}/00/${s}`),
    glnArb.map((g) => `${DL}/414/${g}`),
    fc
      .tuple(glnArb, cset82Arb())
      .filter(([, e]) => e !== "0")
      .map(([g, e]) => `${DL}/414/${g}/254/${encodeURIComponent(e)}`),
    glnArb.map((g) => `${DL}/417/${g}`),
  );

  it("round-trips URN → Digital Link → URN for company prefixes of 6 to 12 digits", () => {
    fc.assert(
      fc.property(dlArb, cpLengthArb, (dl, cpLength) => {
        const urn = digitalLinkToEpcUrn(dl, cpLength);
        expect(urn).toMatch(/^urn:epc:/);
        const back = epcUrnToDigitalLink(urn ?? "");
        expect(back).toBe(canonicalId(dl));
        expect(digitalLinkToEpcUrn(back ?? "", cpLength)).toBe(urn);
        expect(idsEqual(urn ?? "", dl)).toBe(true);
      }),
    );
  });
});

describe("canonicalId", () => {
  it("puts URNs and Digital Links on any host under id.gs1.org and leaves custom URIs alone", () => {
    expect(canonicalId(" urn:epc:id:sscc:0614141.1234567890 ")).toBe(`${DL}/00/106141412345678908`);
    expect(canonicalId("http://resolver.example/dl/00/106141412345678908?linkType=all")).toBe(
      `${DL}/00/106141412345678908`,
    );
    expect(canonicalId(`${DL}/01/9506000134352`)).toBe(`${DL}/01/09506000134352`);
    expect(canonicalId(" urn:gdst:example.com:location:loc:1 ")).toBe("urn:gdst:example.com:location:loc:1");
    expect(canonicalId(`${DL}/01/09506000134353`)).toBe(`${DL}/01/09506000134353`);
  });

  it("is idempotent", () => {
    const anyId = fc.oneof(
      fc
        .tuple(gtinArb, cset82Arb(), cpLengthArb)
        .map(([g, s, n]) => digitalLinkToEpcUrn(`${DL}/01/${g}/21/${encodeURIComponent(s)}`, n) ?? ""),
      fc
        .tuple(glnArb, cset82Arb())
        .map(([g, e]) => `https://other.example/p/414/${g}/254/${encodeURIComponent(e)}`),
      fc.string(),
      fc.webUrl(),
    );
    fc.assert(
      fc.property(anyId, (id) => {
        const once = canonicalId(id);
        expect(canonicalId(once)).toBe(once);
        expect(idsEqual(id, once)).toBe(true);
      }),
    );
  });

  it("keeps distinct identifiers distinct", () => {
    expect(idsEqual("urn:epc:id:sgtin:0614141.812345.6789", "urn:epc:id:sgtin:0614141.812345.6790")).toBe(
      false,
    );
    expect(idsEqual("urn:epc:id:sgln:0614141.12345.0", "urn:epc:id:sgln:0614141.12345.400")).toBe(false);
    expect(idsEqual("urn:epc:id:sgln:0614141.12345.0", "urn:epc:id:pgln:0614141.12345")).toBe(false);
  });
});

describe("isClassPattern", () => {
  it.each([
    ["urn:epc:idpat:sgtin:4012345.098765.*", true],
    ["urn:epc:idpat:sgtin:4012345.*.*", true],
    [" urn:epc:idpat:sgtin:4012345.*.*\t", true],
    [" urn:epc:idpat:sgtin:4012345.098765.* ", true],
    ["urn:epc:idpat:sgtin:401234.*.*", true],
    ["urn:epc:idpat:sgtin:401234567890.*.*", true],
    ["urn:epc:idpat:sgtin:4012345678901.*.*", false],
    ["urn:x:urn:epc:idpat:sgtin:4012345.*.*", false],
    ["urn:epc:idpat:sgtin:4012345.*.*\nx", false],
    ["urn:epc:idpat:sgtin:40123.*.*", false],
    ["urn:epc:idpat:sgtin:4012345.09876.*", false],
    ["urn:epc:idpat:sgtin:4012345.098765.1", false],
    ["urn:epc:class:lgtin:4012345.012345.998877", false],
    [`${DL}/01/04012345987652`, false],
  ])("%s → %s", (value, expected) => {
    expect(isClassPattern(value)).toBe(expected);
  });
});

describe("gtinOf", () => {
  it("finds the GTIN in URN and Digital Link forms", () => {
    expect(gtinOf("urn:epc:class:lgtin:4012345.012345.998877")).toBe("04012345123456");
    expect(gtinOf("urn:epc:idpat:sgtin:4012345.012345.*")).toBe("04012345123456");
    expect(gtinOf(`https://brand.example/01/04012345123456/21/9`)).toBe("04012345123456");
    expect(gtinOf("urn:epc:id:sscc:0614141.1234567890")).toBeUndefined();
    expect(gtinOf("urn:epc:idpat:sgtin:4012345.*.*")).toBeUndefined();
  });
});

describe("classMatches (spec 4.1 MATCH_anyEPCClass)", () => {
  const lgtin = "urn:epc:class:lgtin:4012345.012345.998877";
  const lgtinDl = `${DL}/01/04012345123456/10/998877`;

  it("matches equal classes in either form", () => {
    expect(classMatches(lgtin, lgtinDl)).toBe(true);
    expect(classMatches(lgtinDl, lgtin)).toBe(true);
    expect(classMatches(lgtin, "urn:epc:class:lgtin:4012345.012345.998878")).toBe(false);
  });

  it("lets a GTIN pattern match every class of that GTIN and nothing else", () => {
    for (const pattern of ["urn:epc:idpat:sgtin:4012345.012345.*", `${DL}/01/04012345123456`]) {
      expect(classMatches(pattern, lgtin)).toBe(true);
      expect(classMatches(pattern, lgtinDl)).toBe(true);
      expect(classMatches(pattern, "urn:epc:idpat:sgtin:4012345.012345.*")).toBe(true);
      expect(classMatches(pattern, "urn:epc:class:lgtin:4012345.012346.998877")).toBe(false);
    }
    expect(classMatches(lgtin, "urn:epc:idpat:sgtin:4012345.012345.*")).toBe(false);
  });

  it("lets a company pattern match every class of that company prefix", () => {
    const pattern = "urn:epc:idpat:sgtin:4012345.*.*";
    expect(classMatches(pattern, lgtin)).toBe(true);
    expect(classMatches(pattern, `${DL}/01/04012345987652`)).toBe(true);
    expect(classMatches(pattern, pattern)).toBe(true);
    expect(classMatches(pattern, "urn:epc:class:lgtin:0614141.077777.987")).toBe(false);
    expect(classMatches(pattern, "urn:epc:class:lgtin:40123450.01234.1")).toBe(true);
    expect(classMatches("urn:epc:idpat:sgtin:40123.*.*", lgtin)).toBe(false);
  });

  it("compares exactly as many digits as the company prefix has, 6 to 12", () => {
    expect(classMatches("urn:epc:idpat:sgtin:401234.*.*", lgtinDl)).toBe(true);
    expect(classMatches("urn:epc:idpat:sgtin:401235.*.*", lgtinDl)).toBe(false);
    expect(classMatches("urn:epc:idpat:sgtin:401234512345.*.*", lgtinDl)).toBe(true);
    expect(classMatches("urn:epc:idpat:sgtin:401234512346.*.*", lgtinDl)).toBe(false);
  });

  it("matches nothing to a class without a GTIN, and compares other values as they stand", () => {
    expect(classMatches("urn:epc:idpat:sgtin:4012345.*.*", "urn:example:class:1")).toBe(false);
    expect(classMatches("urn:example:class:1", "urn:example:class:2")).toBe(false);
    expect(classMatches("urn:example:class:1", " urn:example:class:1 ")).toBe(true);
    expect(classMatches(`${DL}/414/0614141123452`, lgtin)).toBe(false);
  });

  it("agrees between a pattern and its GTIN for random classes", () => {
    fc.assert(
      fc.property(gtinArb, gtinArb, cset82Arb(), cpLengthArb, (g, other, lot, n) => {
        const cls = `${DL}/01/${other}/10/${encodeURIComponent(lot)}`;
        const gtinPattern = digitalLinkToEpcUrn(`${DL}/01/${g}`, n) ?? "";
        const companyPattern = `urn:epc:idpat:sgtin:${g.slice(1, 1 + n)}.*.*`;
        expect(classMatches(gtinPattern, cls)).toBe(g === other);
        expect(classMatches(companyPattern, cls)).toBe(other.slice(1, 1 + n) === g.slice(1, 1 + n));
        expect(classMatches(companyPattern, digitalLinkToEpcUrn(cls, n) ?? "")).toBe(
          other.slice(1, 1 + n) === g.slice(1, 1 + n),
        );
      }),
    );
  });
});

describe("idValue and PARTY_FIELDS", () => {
  it("reads a party as its URI, or as the @id or id of an object, and nothing else", () => {
    const uri = "https://id.gs1.org/417/9506000999996";
    expect(idValue(uri)).toBe(uri);
    expect(idValue({ "@id": uri, name: "x" })).toBe(uri);
    expect(idValue({ id: uri })).toBe(uri);
    expect(idValue({ "@id": uri, id: "other" })).toBe(uri);
    expect(idValue({ "@id": 7 })).toBeUndefined();
    expect(idValue({ name: uri })).toBeUndefined();
    expect(idValue(null)).toBeUndefined();
    expect(idValue(42)).toBeUndefined();
  });

  it("lists the information provider before the product owner", () => {
    expect(PARTY_FIELDS).toEqual(["cbvmda:informationProvider", "gdst:productOwner"]);
  });
});
