// The receiver's knowledge the resolver and workflow classes share: who the sender is (its setup party, location
// and company prefix), which identifiers are its own, and how an epcis link or an identifier issued under the
// canonical base becomes a request.
import { describe, expect, it } from "vitest";
import type { RunContext } from "../../src/harness/context.ts";
import { CANONICAL_DL_BASE, type EpcisEvent, gs1CheckDigit } from "../../src/model/index.ts";
import { eventsRequest } from "../../suites/resolver/support/follow.ts";
import { canonicalBaseReplaced } from "../../suites/resolver/support/linksets.ts";
import { companyPrefixOf, ownership, setupValues } from "../../suites/resolver/support/sender.ts";

const withCheck = (body: string) => body + gs1CheckDigit(body);
const PARTY = `${CANONICAL_DL_BASE}/417/${withCheck("561310400000")}`;
const OTHER_PARTY = `${CANONICAL_DL_BASE}/417/${withCheck("108137535000")}`;
const PLANT = `${CANONICAL_DL_BASE}/414/${withCheck("561310400001")}`;
const VESSEL = `${CANONICAL_DL_BASE}/414/${withCheck("108137535001")}`;

function recorded(id: string, by: string, at: string, extra: Partial<EpcisEvent> = {}): EpcisEvent {
  return {
    type: "ObjectEvent",
    eventID: `urn:uuid:${id}`,
    action: "OBSERVE",
    bizLocation: { id: at },
    "cbvmda:informationProvider": by,
    ...extra,
  };
}

/** The only fields of the run context that the setup values read. */
function context(given: { party?: string; gln?: string } = {}): RunContext {
  return given as RunContext;
}

describe("companyPrefixOf", () => {
  it("reads the party's company prefix off an EPC URN of the events", () => {
    const events = [recorded("a", "urn:epc:id:pgln:5613104.00000", PLANT)];
    expect(companyPrefixOf(PARTY, events)).toBe("5613104");
  });

  it("takes any URN whose prefix begins the party's GLN, the longest one, and ignores other companies'", () => {
    const events = [
      recorded("a", PARTY, PLANT, {
        epcList: ["urn:epc:id:sgtin:108137535.0004.1", "urn:epc:id:sgtin:561310.04000.9"],
      }),
      recorded("b", PARTY, "urn:epc:id:sgln:5613104.00001.0"),
    ];
    expect(companyPrefixOf(PARTY, events)).toBe("5613104");
    expect(companyPrefixOf(OTHER_PARTY, events)).toBe("108137535");
  });

  it("does not guess a prefix when no URN names one", () => {
    expect(companyPrefixOf(PARTY, [recorded("a", PARTY, PLANT)])).toBeUndefined();
  });
});

describe("setupValues", () => {
  const events = [
    recorded("a", PARTY, VESSEL, { "gdst:productOwner": OTHER_PARTY }),
    recorded("b", PARTY, VESSEL),
    recorded("c", PARTY, "urn:epc:id:sgln:5613104.00001.0"),
    recorded("d", OTHER_PARTY, VESSEL),
  ];

  it("takes the party that records most events, and its most common location under its own prefix", () => {
    const values = setupValues(context(), events);
    expect(values.party).toBe(PARTY);
    expect(values.prefix).toBe("5613104");
    expect(values.gln).toBe(PLANT);
    expect(values.notes).toHaveLength(2);
  });

  it("takes the party's most common location when its prefix is unknown", () => {
    const dl = events.map((e) => (e.eventID === "urn:uuid:c" ? { ...e, bizLocation: { id: PLANT } } : e));
    const values = setupValues(context(), dl);
    expect(values.prefix).toBeUndefined();
    expect(values.gln).toBe(VESSEL);
  });

  it("keeps --party and --gln as given, thirteen digits read as a GLN", () => {
    const gln = withCheck("561310400000");
    const values = setupValues(context({ party: OTHER_PARTY, gln }), events);
    expect(values.party).toBe(OTHER_PARTY);
    expect(values.gln).toBe(`${CANONICAL_DL_BASE}/414/${gln}`);
    expect(values.glnGiven).toBe(true);
    expect(values.notes).toEqual([]);
  });
});

describe("ownership", () => {
  const values = { party: PARTY, gln: VESSEL, glnGiven: true, prefix: "5613104", notes: [] };

  it("counts the setup values and every key under the company prefix as the sender's own", () => {
    expect(ownership(values, PARTY)?.setup).toBe(true);
    expect(ownership(values, "urn:epc:id:sgln:108137535.001.0")?.setup).toBe(true);
    expect(ownership(values, PLANT)?.setup).toBe(false);
    expect(ownership(values, `${CANONICAL_DL_BASE}/01/${withCheck("0561310400004")}/21/x`)?.why).toContain(
      "5613104",
    );
    expect(ownership(values, "urn:epc:id:sscc:5613104.0000000687")).toBeDefined();
  });

  it("does not count another company's identifier, nor a prefix that shows only after the indicator digit", () => {
    expect(ownership(values, OTHER_PARTY)).toBeUndefined();
    expect(ownership(values, `${CANONICAL_DL_BASE}/01/${withCheck("1081375350004")}`)).toBeUndefined();
    expect(ownership(values, `${CANONICAL_DL_BASE}/01/${withCheck("5613104000004")}`)).toBeUndefined();
    expect(ownership({ notes: [] }, PLANT)).toBeUndefined();
  });

  it("does not count a location the harness took from the events unless it is under the prefix", () => {
    const guessed = { ...values, glnGiven: false };
    expect(ownership(guessed, VESSEL)).toBeUndefined();
    expect(ownership({ ...guessed, gln: PLANT }, PLANT)?.setup).toBe(false);
  });
});

describe("eventsRequest", () => {
  const query = { MATCH_anyEPC: ["https://id.gs1.org/00/056131040000006875"] };

  it("follows a link that selects events as it is", () => {
    const href = "https://epcis.example/events?MATCH_anyEPC=x";
    expect(eventsRequest(href, query)).toEqual({ url: href, queried: false, repository: false });
  });

  it("asks the query interface a link names for the identifier, at its GET /events", () => {
    for (const href of [
      "https://epcis.example/events",
      "https://epcis.example/",
      "https://epcis.example/api/",
    ]) {
      const request = eventsRequest(href, query);
      expect(request.queried, href).toBe(true);
      expect(request.url, href).toMatch(
        /^https:\/\/epcis\.example(\/api)?\/events\?MATCH_anyEPC=https%3A%2F%2F/,
      );
    }
  });

  it("asks the whole repository when there is no query for the identifier", () => {
    expect(eventsRequest("https://epcis.example", undefined)).toEqual({
      url: "https://epcis.example/events",
      queried: false,
      repository: true,
    });
  });
});

describe("canonicalBaseReplaced (spec 4.2)", () => {
  it("replaces https://id.gs1.org by the resolver base and keeps the rest as issued", () => {
    const issued = `${CANONICAL_DL_BASE}/01/9506000134352/10/a%2fb?linkType=linkset`;
    expect(canonicalBaseReplaced(issued, "https://resolver.example/dl/")).toBe(
      "https://resolver.example/dl/01/9506000134352/10/a%2fb?linkType=linkset",
    );
  });

  it("refuses a URI issued under another base", () => {
    expect(() => canonicalBaseReplaced("https://brand.example/01/9506000134352", "https://r")).toThrow(
      /not issued under https:\/\/id\.gs1\.org/,
    );
  });
});
