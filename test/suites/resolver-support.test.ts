// The receiver's knowledge the resolver and workflow classes share: who the sender is (its setup party, location
// and company prefix), which identifiers are its own, which refusals of the resolver are no failure, how the
// target's events write an identifier, and how an epcis link or an identifier issued under the canonical base
// becomes a request.
import { describe, expect, it } from "vitest";
import { writtenQuery, writtenSpelling } from "../../src/assertions/concerns.ts";
import { mayBeRefusedAsBroad } from "../../src/assertions/narrow-query.ts";
import { declined, pathFormExcuse } from "../../src/assertions/path-verdicts.ts";
import type { RunContext } from "../../src/engine/context.ts";
import type { HttpResult } from "../../src/http/index.ts";
import {
  CANONICAL_DL_BASE,
  canonicalId as canonicalIdOf,
  type EpcisEvent,
  type EventQuery,
  encodeQuery,
  gs1CheckDigit,
  PARTY_FIELDS,
} from "../../src/model/index.ts";
import { eventsRequest } from "../../src/target/follow.ts";
import { canonicalBaseReplaced, type LinksetAnswer } from "../../src/target/linkset-answers.ts";
import {
  companyPrefixOf,
  identifiersNamedIn,
  ownership,
  presumedOwnership,
  setupValues,
} from "../../src/target/sender.ts";
import type { Subject } from "../../src/target/subjects.ts";
import { guessExcuse, masterDataExcuse } from "../../suites/workflow/support/excuses.ts";
import type { Failure } from "../../suites/workflow/support/resolve.ts";

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

describe("identifiersNamedIn", () => {
  it("lists the event's EPCs, parent, classes, places and parties, as written and in that order", () => {
    const event = recorded("a", PARTY, PLANT, {
      epcList: ["urn:epc:id:sgtin:5613104.00400.1"],
      childEPCs: ["urn:epc:id:sgtin:5613104.00400.2"],
      parentID: "urn:epc:id:sscc:5613104.0000000001",
      quantityList: [{ epcClass: "urn:epc:class:lgtin:5613104.00400.L1" }],
      readPoint: { id: VESSEL },
    });
    expect(identifiersNamedIn(event)).toEqual([
      "urn:epc:id:sgtin:5613104.00400.1",
      "urn:epc:id:sgtin:5613104.00400.2",
      "urn:epc:id:sscc:5613104.0000000001",
      "urn:epc:class:lgtin:5613104.00400.L1",
      PLANT,
      VESSEL,
      ...PARTY_FIELDS.map((field) => (field === "cbvmda:informationProvider" ? PARTY : undefined)),
    ]);
  });
});

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
  const values = {
    party: PARTY,
    partyGiven: true,
    gln: VESSEL,
    glnGiven: true,
    prefix: "5613104",
    notes: [],
  };

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

describe("a party taken from the events is a guess (no --party)", () => {
  const events = [
    recorded("a", "urn:epc:id:pgln:5613104.00000", "urn:epc:id:sgln:5613104.00001.0"),
    recorded("b", PARTY, PLANT),
    recorded("c", OTHER_PARTY, VESSEL),
  ];
  const gtin = `${CANONICAL_DL_BASE}/01/${withCheck("0561310400004")}`;

  it("makes neither the party nor its company prefix's identifiers the sender's own", () => {
    const values = setupValues(context(), events);
    expect(values.party).toBe(PARTY);
    expect(values.prefix).toBe("5613104");
    expect(values.partyGiven).toBeUndefined();
    expect(values.notes[0]).toContain("a guess");
    expect(ownership(values, PARTY)).toBeUndefined();
    expect(ownership(values, gtin)).toBeUndefined();
    expect(ownership(values, PLANT)).toBeUndefined();
  });

  it("still asks about the guessed party's identifiers first, with no verdict resting on it", () => {
    const values = setupValues(context(), events);
    expect(presumedOwnership(values, PARTY)?.setup).toBe(true);
    expect(presumedOwnership(values, gtin)?.why).toContain("5613104");
    expect(presumedOwnership(values, OTHER_PARTY)).toBeUndefined();
  });

  it("is known with --party, and for the embedded reference, whose own party follows the same rule", () => {
    const given = setupValues(context({ party: PARTY }), events);
    expect(given.partyGiven).toBe(true);
    expect(ownership(given, PARTY)?.why).toBe("it is the party exchanged at setup");
    expect(ownership(given, gtin)?.setup).toBe(false);
    const embedded = setupValues({ embedded: true } as RunContext, events);
    expect(embedded.partyGiven).toBe(true);
    expect(ownership(embedded, PARTY)?.setup).toBe(true);
  });
});

/** A link-set answer of the resolver with the given status. */
function answered(status: number | undefined, problem: string | undefined): LinksetAnswer {
  const a: LinksetAnswer = { form: "01", uri: `${CANONICAL_DL_BASE}/01/09506000134352`, url: "u" };
  if (status !== undefined) a.result = { status } as HttpResult;
  if (problem !== undefined) a.problem = problem;
  return a;
}

describe("an identifier the resolver declines (spec: its status codes are not shown)", () => {
  const own = { setup: false, why: "it is under the company prefix 950600 of the sender's party" };

  it("is a note, whatever the status, when it is not known to be the sender's", () => {
    for (const status of [400, 401, 403, 404, 410, 500, 503]) {
      expect(pathFormExcuse(answered(status, `status ${status}`), undefined), String(status)).toContain(
        `answered ${status}`,
      );
    }
  });

  it("fails when it is the sender's own, or when a 2xx is not a link set, or when nothing answered", () => {
    expect(pathFormExcuse(answered(404, "status 404"), own)).toBeUndefined();
    expect(pathFormExcuse(answered(500, "status 500"), own)).toBeUndefined();
    expect(pathFormExcuse(answered(200, "no linkset member"), undefined)).toBeUndefined();
    expect(pathFormExcuse(answered(undefined, "connection refused"), undefined)).toBeUndefined();
    expect(pathFormExcuse(answered(200, undefined), undefined)).toBeUndefined();
  });

  it("declined: any answer but a 2xx", () => {
    expect([199, 200, 204, 299, 300, 404, 500].map(declined)).toEqual([
      true,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(declined(undefined)).toBe(false);
  });

  const failure = (status: number | undefined, stage: Failure["stage"] = "linkset"): Failure =>
    status === undefined
      ? { ok: false, reason: "r", evidence: {}, stage }
      : { ok: false, reason: "r", evidence: {}, stage, status };
  const place: Subject = { id: PLANT, type: "gs1:Place", role: "business location" };
  const product: Subject = {
    id: `${CANONICAL_DL_BASE}/01/09506000134352`,
    type: "gs1:Product",
    role: "product",
  };

  it("FLOW-MASTERDATA: excuses a decline of another company's identifier, not of the sender's own", () => {
    for (const status of [403, 404, 500]) {
      expect(masterDataExcuse(product, failure(status), undefined)).toBe(`${product.id} answered ${status}`);
      expect(masterDataExcuse(product, failure(status), own.why)).toBeUndefined();
    }
    expect(masterDataExcuse(product, failure(200), undefined)).toBeUndefined();
    expect(masterDataExcuse(product, failure(undefined), undefined)).toBeUndefined();
    expect(masterDataExcuse(product, failure(404, "link"), undefined)).toBeUndefined();
    expect(masterDataExcuse(place, failure(undefined, "no-link"), own.why)).toContain("no masterData link");
    expect(masterDataExcuse(product, failure(undefined, "no-link"), undefined)).toBeUndefined();
  });

  it("FLOW-SETUP: a guessed party or location declined at its link set is a skip naming the option", () => {
    expect(guessExcuse(PARTY, "--party", failure(404))).toContain("pass the value it exchanges with --party");
    expect(guessExcuse(PLANT, "--gln", failure(500))).toContain("--gln");
    expect(guessExcuse(PARTY, "--party", failure(200))).toBeUndefined();
    expect(guessExcuse(PARTY, "--party", failure(404, "link"))).toBeUndefined();
  });

  it("FLOW-SETUP: a guessed party or location whose link set offers neither link type is a skip too", () => {
    // Spec 4.2 makes a party or location reachable with gs1:masterData or gs1:epcis; a guess that offers neither
    // may simply not be the sender's.
    expect(guessExcuse(PLANT, "--gln", failure(200, "no-link"))).toContain(
      "offers neither gs1:masterData nor gs1:epcis",
    );
    expect(guessExcuse(PARTY, "--party", failure(200, "no-link"))).toContain(
      "pass the value it exchanges with --party",
    );
  });
});

describe("the identifier as the target's events write it", () => {
  const SERIAL_URN = "urn:epc:id:sgtin:5613104.004000.77";
  const SERIAL = canonicalIdOf(SERIAL_URN);
  const LOT_URN = "urn:epc:class:lgtin:5613104.004000.L9";
  const LOT = canonicalIdOf(LOT_URN);
  const SGLN = "urn:epc:id:sgln:5613104.00001.0";
  const events = [
    recorded("a", PARTY, SGLN, { epcList: [SERIAL_URN] }),
    recorded("b", PARTY, SGLN, { epcList: [SERIAL_URN], quantityList: [{ epcClass: LOT_URN }] }),
    recorded("c", PARTY, PLANT, { epcList: [SERIAL] }),
  ];

  it("is the most common spelling whose canonical form is the identifier's, else the value itself", () => {
    expect(SERIAL).toMatch(/^https:\/\/id\.gs1\.org\/01\/\d{14}\/21\/77$/);
    expect(writtenSpelling(events, SERIAL, "epc")).toBe(SERIAL);
    expect(
      writtenSpelling(events, SERIAL.replace(CANONICAL_DL_BASE, "https://resolver.example"), "epc"),
    ).toBe(SERIAL_URN);
    expect(writtenSpelling(events, LOT, "class")).toBe(LOT_URN);
    expect(writtenSpelling(events, LOT, "epc")).toBeUndefined();
    expect(writtenSpelling(events, PLANT, "location")).toBe(PLANT);
    expect(writtenSpelling([events[0]!], PLANT, "location")).toBe(SGLN);
  });

  it("writtenQuery asks the epcis query interface with it, and says when only the canonical form is known", () => {
    expect(writtenQuery("01/10", LOT, events)).toEqual({
      query: { MATCH_anyEPCClass: [LOT_URN] },
      asWritten: true,
    });
    expect(writtenQuery("414", PLANT, [events[0]!])).toEqual({
      query: { EQ_bizLocation: [SGLN] },
      asWritten: true,
    });
    expect(writtenQuery("00", `${CANONICAL_DL_BASE}/00/056131040000006875`, events)).toEqual({
      query: { MATCH_anyEPC: [`${CANONICAL_DL_BASE}/00/056131040000006875`] },
      asWritten: false,
    });
    // A product is asked for with its class pattern as the events' lgtin URNs write it, else its canonical form.
    expect(writtenQuery("01", canonicalIdOf("urn:epc:idpat:sgtin:5613104.004000.*"), events)).toEqual({
      query: { MATCH_anyEPCClass: ["urn:epc:idpat:sgtin:5613104.004000.*"] },
      asWritten: true,
    });
    const other = `${CANONICAL_DL_BASE}/01/${withCheck("0561310400400")}`;
    expect(writtenQuery("01", other, events)).toEqual({
      query: { MATCH_anyEPCClass: [other] },
      asWritten: false,
    });
    expect(writtenQuery("417", PARTY, events)).toBeUndefined();
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

describe("which epcis link may be refused with 413 as too broad (RES-EPCIS-LINK)", () => {
  const GTIN = withCheck("0561310400400");
  const QUERY_INTERFACE = "https://sender.example/epcis";
  const SERIAL = `${CANONICAL_DL_BASE}/01/${GTIN}/21/77`;
  const LOT = `${CANONICAL_DL_BASE}/01/${GTIN}/10/L9`;
  /** A link of the sender's own that selects events with `query`. */
  const linkTo = (query: EventQuery) =>
    eventsRequest(`${QUERY_INTERFACE}/events?${encodeQuery(query)}`, undefined);

  it("not where the query is narrow as EVT-413-NARROW holds it: one EPC, one lot, one transformation", () => {
    const sscc = `${CANONICAL_DL_BASE}/00/${withCheck("05613104000000001")}`;
    for (const query of [
      { MATCH_anyEPC: [sscc] },
      { MATCH_anyEPC: [SERIAL] },
      { MATCH_anyEPCClass: [LOT] },
      // Narrowed further, still narrow.
      { MATCH_anyEPCClass: [LOT], GE_eventTime: "2024-01-01T00:00:00Z" },
      { EQ_transformationID: ["urn:uuid:0b6c5a3e-1f1e-4a53-9d1e-2f8b8a1c0d00"] },
    ] satisfies EventQuery[]) {
      expect(mayBeRefusedAsBroad(linkTo(query)), encodeQuery(query)).toBe(false);
    }
  });

  it("where it is not: a whole GTIN, a location, two EPCs", () => {
    for (const query of [
      { MATCH_anyEPCClass: [`${CANONICAL_DL_BASE}/01/${GTIN}`] },
      { EQ_bizLocation: [PLANT] },
      { MATCH_anyEPC: [SERIAL, `${CANONICAL_DL_BASE}/01/${GTIN}/21/78`] },
    ] satisfies EventQuery[]) {
      expect(mayBeRefusedAsBroad(linkTo(query)), encodeQuery(query)).toBe(true);
    }
  });

  it("judges the query the receiver added to a link to the query interface itself the same way", () => {
    expect(mayBeRefusedAsBroad(eventsRequest(QUERY_INTERFACE, { MATCH_anyEPC: [SERIAL] }))).toBe(false);
    expect(mayBeRefusedAsBroad(eventsRequest(QUERY_INTERFACE, { EQ_bizLocation: [PLANT] }))).toBe(true);
  });

  it("lets the whole repository be refused", () => {
    const whole = eventsRequest(QUERY_INTERFACE, undefined);
    expect(whole.repository).toBe(true);
    expect(mayBeRefusedAsBroad(whole)).toBe(true);
  });
});
