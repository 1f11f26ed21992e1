import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  anchorProblem,
  defaultLinkProblem,
  linksetShapeProblem,
  linkTypeSpellingProblem,
  missingLinkTypesProblem,
} from "../../src/assertions/linkset.ts";
import { CANONICAL_DL_BASE, gs1CheckDigit } from "../../src/model/index.ts";
import {
  DEFAULT_LINK,
  EPCIS_LINK,
  entryAbout,
  linksetEntries,
  linksOf,
  linkTypeMember,
  linkTypesOffered,
  MASTER_DATA_LINK,
} from "../../src/target/linkset.ts";

const GLN = "950600000001" + gs1CheckDigit("950600000001");
const GTIN = "0950600001343" + gs1CheckDigit("0950600001343");
const RESOLVER = "http://127.0.0.1:8080";
const CANONICAL = `${CANONICAL_DL_BASE}/414/${GLN}`;

const link = (href: string, title = "a link") => ({ href, title });

function goodBody(anchor = `${RESOLVER}/414/${GLN}`) {
  return {
    linkset: [
      {
        anchor,
        itemDescription: "Harbour plant",
        [DEFAULT_LINK]: [link(`${RESOLVER}/masterdata/414/${GLN}`)],
        [MASTER_DATA_LINK]: [link(`${RESOLVER}/masterdata/414/${GLN}`)],
        [EPCIS_LINK]: [link(`${RESOLVER}/events?EQ_bizLocation=x`)],
      },
    ],
  };
}

describe("linksetShapeProblem", () => {
  it("accepts the link set of spec 2.3, with a null itemDescription too", () => {
    expect(linksetShapeProblem(goodBody())).toBeUndefined();
    const body = goodBody();
    (body.linkset[0] as Record<string, unknown>).itemDescription = null;
    expect(linksetShapeProblem(body)).toBeUndefined();
  });

  it("refuses a body that is not an object or whose linkset is not an array", () => {
    expect(linksetShapeProblem([])?.message).toMatch(/not a JSON object/);
    expect(linksetShapeProblem({ linkset: goodBody().linkset[0] })?.message).toMatch(/not an array/);
    expect(linksetShapeProblem({})?.actual).toBe("no linkset member");
  });

  it("names an itemDescription that is a number or absent", () => {
    const body = goodBody();
    (body.linkset[0] as Record<string, unknown>).itemDescription = 9506000000018;
    expect(linksetShapeProblem(body)?.message).toMatch(/itemDescription is 9506000000018/);
    delete (body.linkset[0] as Record<string, unknown>).itemDescription;
    expect(linksetShapeProblem(body)?.message).toMatch(/no itemDescription/);
  });

  it("names a link without title, without href, or with a relative href", () => {
    const body = goodBody();
    const entry = body.linkset[0] as Record<string, unknown>;
    entry[EPCIS_LINK] = [{ href: `${RESOLVER}/events` }];
    expect(linksetShapeProblem(body)?.message).toMatch(/no string title/);
    entry[EPCIS_LINK] = [{ title: "t" }];
    expect(linksetShapeProblem(body)?.message).toMatch(/no string href/);
    entry[EPCIS_LINK] = [link("/events")];
    expect(linksetShapeProblem(body)?.message).toMatch(/not an absolute URL/);
    entry[EPCIS_LINK] = link(`${RESOLVER}/events`);
    expect(linksetShapeProblem(body)?.message).toMatch(/not an array of link objects/);
  });

  it("names an anchor that is missing or not a URI, and an entry that is not an object", () => {
    expect(linksetShapeProblem({ linkset: [{ itemDescription: null }] })?.message).toMatch(
      /anchor is not a string/,
    );
    expect(linksetShapeProblem(goodBody("not a uri"))?.message).toMatch(/is not a URI/);
    expect(linksetShapeProblem({ linkset: ["x"] })?.message).toMatch(/linkset\[0\] is not an object/);
  });

  it("leaves link types outside spec 2.3 alone", () => {
    const body = goodBody();
    (body.linkset[0] as Record<string, unknown>)["https://example.com/rel"] = [{ href: "rel" }];
    expect(linksetShapeProblem(body)).toBeUndefined();
  });
});

describe("anchorProblem", () => {
  it("no false positive on an anchor under any base: the resolver's, the canonical one, or another host", () => {
    expect(anchorProblem(goodBody(), CANONICAL)).toBeUndefined();
    expect(anchorProblem(goodBody(CANONICAL), CANONICAL)).toBeUndefined();
    expect(anchorProblem(goodBody(`https://brand.example/414/${GLN}`), CANONICAL)).toBeUndefined();
  });

  it("refuses the resolver's bare base and another identifier, naming the identifier expected", () => {
    const bare = anchorProblem(goodBody(RESOLVER), CANONICAL);
    expect(bare?.message).toMatch(/no entry's anchor/);
    expect(bare?.expected).toBe(CANONICAL);
    expect(bare?.actual).toEqual([RESOLVER]);
    expect(anchorProblem(goodBody(`${RESOLVER}/01/${GTIN}`), CANONICAL)).toBeDefined();
    expect(anchorProblem(goodBody("not a uri"), CANONICAL)).toBeDefined();
  });

  it("refuses an empty link set", () => {
    expect(anchorProblem({ linkset: [] }, CANONICAL)?.message).toMatch(/no entry/);
  });
});

describe("entries and links", () => {
  it("finds the entry about an identifier whatever base its anchor has", () => {
    expect(entryAbout(goodBody(), CANONICAL)?.anchor).toBe(`${RESOLVER}/414/${GLN}`);
    expect(entryAbout(goodBody(), `${CANONICAL_DL_BASE}/01/${GTIN}`)).toBeUndefined();
    expect(linksetEntries({ linkset: "x" })).toEqual([]);
  });

  it("maps the definition's gs1: link types to entry members", () => {
    expect(linkTypeMember("gs1:epcis")).toBe(EPCIS_LINK);
    expect(linkTypeMember(MASTER_DATA_LINK)).toBe(MASTER_DATA_LINK);
  });

  it("lists the links of a type and names the missing types", () => {
    const entry = linksetEntries(goodBody())[0]!;
    expect(linksOf(entry, "gs1:epcis").map((l) => l.href)).toEqual([`${RESOLVER}/events?EQ_bizLocation=x`]);
    expect(missingLinkTypesProblem(entry, ["gs1:masterData", "gs1:epcis"])).toBeUndefined();
    delete entry[EPCIS_LINK];
    entry[MASTER_DATA_LINK] = [];
    const problem = missingLinkTypesProblem(entry, ["gs1:masterData", "gs1:epcis"]);
    expect(problem?.message).toBe(`the entry offers no ${MASTER_DATA_LINK} and no ${EPCIS_LINK} link`);
  });

  it("names the entries without a default link", () => {
    expect(defaultLinkProblem(goodBody())).toBeUndefined();
    const body = goodBody();
    delete (body.linkset[0] as Record<string, unknown>)[DEFAULT_LINK];
    expect(defaultLinkProblem(body)?.actual).toEqual([`${RESOLVER}/414/${GLN}`]);
  });
});

/** The same entry with its link types written under another namespace of the GS1 Web Vocabulary. */
function respelled(namespace: string) {
  const body = goodBody();
  const entry = body.linkset[0] as Record<string, unknown>;
  for (const member of [DEFAULT_LINK, MASTER_DATA_LINK, EPCIS_LINK]) {
    entry[namespace + member.slice("https://ref.gs1.org/voc/".length)] = entry[member];
    delete entry[member];
  }
  return body;
}

// The GS1 Web Vocabulary's own list of the three link types and their equivalent properties.
const VOCABULARY = JSON.parse(
  readFileSync(
    path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      "../../../shared/epcis/digital-link/gs1-linktypes.v1.16.derived.json",
    ),
    "utf8",
  ),
) as { linkTypes: { curie: string; uri: string; equivalent: string[] }[] };

describe("link types in other spellings of the GS1 Web Vocabulary (RES-LINKTYPE-SPELLING)", () => {
  it("no false positive on https://gs1.org/voc/, the spelling GS1's own resolver writes", () => {
    const body = respelled("https://gs1.org/voc/");
    const entry = linksetEntries(body)[0]!;
    expect(linksOf(entry, "gs1:epcis").map((l) => l.href)).toEqual([`${RESOLVER}/events?EQ_bizLocation=x`]);
    expect(linksOf(entry, MASTER_DATA_LINK)).toHaveLength(1);
    expect(missingLinkTypesProblem(entry, ["gs1:masterData", "gs1:epcis"])).toBeUndefined();
    expect(defaultLinkProblem(body)).toBeUndefined();
    expect(linkTypesOffered(entry)).toEqual([DEFAULT_LINK, EPCIS_LINK, MASTER_DATA_LINK].sort());
  });

  it("reads every equivalent the vocabulary lists, the compact gs1: form and the http forms", () => {
    for (const name of ["defaultLink", "masterData", "epcis"]) {
      const term = VOCABULARY.linkTypes.find((t) => t.curie === `gs1:${name}`)!;
      const spellings = [
        term.curie,
        term.uri,
        ...term.equivalent,
        ...term.equivalent.map((e) => e.replace("https:", "http:")),
      ];
      for (const spelling of spellings) expect(linkTypeMember(spelling), spelling).toBe(term.uri);
    }
    expect(linkTypeMember("https://gs1.org/voc/pip")).toBe("https://ref.gs1.org/voc/pip");
    expect(linkTypeMember("https://example.com/voc/epcis")).toBe("https://example.com/voc/epcis");
    expect(linkTypeMember("https://gs1.org/voc/")).toBe("https://gs1.org/voc/");
  });

  it("holds a link in another spelling to the link-object rules of spec 2.3", () => {
    const body = respelled("https://www.gs1.org/voc/");
    (body.linkset[0] as Record<string, unknown>)["https://www.gs1.org/voc/epcis"] = [{ href: "/events" }];
    expect(linksetShapeProblem(body)?.message).toMatch(/\["https:\/\/www\.gs1\.org\/voc\/epcis"\]\[0\]/);
  });

  it("warns of each other spelling, naming spec 2.3's, and is silent on spec 2.3's own", () => {
    expect(linkTypeSpellingProblem(goodBody())).toBeUndefined();
    const problem = linkTypeSpellingProblem(respelled("https://gs1.org/voc/"));
    expect(problem?.actual).toEqual([
      "https://gs1.org/voc/defaultLink",
      "https://gs1.org/voc/masterData",
      "https://gs1.org/voc/epcis",
    ]);
    expect(problem?.expected).toEqual([DEFAULT_LINK, MASTER_DATA_LINK, EPCIS_LINK]);
    const other = goodBody();
    (other.linkset[0] as Record<string, unknown>)["https://gs1.org/voc/pip"] = [link(`${RESOLVER}/pip`)];
    expect(linkTypeSpellingProblem(other)).toBeUndefined();
  });
});

describe("the /414 and /417 rows: reachable with gs1:masterData or gs1:epcis", () => {
  it("no false positive on a location or party that offers one of the two", () => {
    const entry = linksetEntries(goodBody())[0]!;
    delete entry[MASTER_DATA_LINK];
    expect(missingLinkTypesProblem(entry, ["gs1:masterData", "gs1:epcis"], { anyOf: true })).toBeUndefined();
    expect(missingLinkTypesProblem(entry, ["gs1:masterData", "gs1:epcis"])).toBeDefined();
  });

  it("fails an entry that offers neither", () => {
    const entry = linksetEntries(goodBody())[0]!;
    delete entry[MASTER_DATA_LINK];
    delete entry[EPCIS_LINK];
    const problem = missingLinkTypesProblem(entry, ["gs1:masterData", "gs1:epcis"], { anyOf: true });
    expect(problem?.message).toBe(`the entry offers neither a ${MASTER_DATA_LINK} nor a ${EPCIS_LINK} link`);
  });
});
