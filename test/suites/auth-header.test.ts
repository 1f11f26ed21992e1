// AUTH-HEADER judges the header's casing "on every endpoint that checks keys" (registry): an endpoint that answers
// without a key (spec 5.6) answers any header, so it is not judged, and with no endpoint left the check is skipped.
import { describe, expect, it } from "vitest";
import { accessOf, type Probe, type ProbedEndpoint } from "../../src/assertions/auth.ts";
import type { AuthEndpoint, EndpointSurvey } from "../../suites/auth/support/endpoints.ts";
import { headerEndpoints } from "../../suites/auth/support/header.ts";

const is2xx = (s: number) => s >= 200 && s <= 299;

function probe(status: number | undefined): Probe {
  const request = { method: "GET", url: "http://127.0.0.1:9/events", headers: {} };
  if (status === undefined) return { error: "connect ECONNREFUSED", evidence: { request } };
  const response = { status, headers: {}, bodyExcerpt: "", bodyBytes: 0, truncated: false };
  return { status, evidence: { request, response } };
}

function endpoint(name: string, withKey: number | undefined, withoutKey: number): AuthEndpoint {
  const probed: ProbedEndpoint = {
    name,
    accepted: is2xx,
    withKey: probe(withKey),
    withoutKey: probe(withoutKey),
  };
  return { ...probed, url: `http://127.0.0.1:9/${name}`, access: accessOf(probed) };
}

function survey(events: AuthEndpoint, others: AuthEndpoint[] = [], notes: string[] = []): EndpointSurvey {
  const all = [events, ...others];
  return { events, guarded: all.filter((e) => e.access.kind === "guarded"), notes };
}

describe("headerEndpoints: the endpoints AUTH-HEADER puts the casings to", () => {
  it("judges GET /events and the resolver where they refuse a request without a key", () => {
    const events = endpoint("GET /events", 200, 401);
    const resolver = endpoint("the resolver", 200, 403);
    expect(headerEndpoints(survey(events, [resolver]))).toEqual([events, resolver]);
  });

  it("leaves out a GET /events that answers without a key, judging only the guarded resolver", () => {
    const resolver = endpoint("the resolver", 200, 401);
    expect(headerEndpoints(survey(endpoint("GET /events", 200, 200), [resolver]))).toEqual([resolver]);
  });

  it("skips with the reason where no endpoint checks keys", () => {
    const notes = ["the resolver answers without a key (public, allowed by spec 5.6)"];
    const verdict = headerEndpoints(survey(endpoint("GET /events", 200, 200), [], notes));
    expect(verdict).toMatchObject({ status: "skip" });
    expect(!Array.isArray(verdict) && verdict.reason).toMatch(
      /^no endpoint checks keys.*GET \/events answers without a key.*; the resolver answers without a key/,
    );
  });

  it("still judges a GET /events that refuses the valid key, where every casing may be refused", () => {
    const events = endpoint("GET /events", 401, 401);
    expect(headerEndpoints(survey(events))).toEqual([events]);
  });

  it("gives the error of a GET /events that gave no answer, with no guarded endpoint", () => {
    expect(headerEndpoints(survey(endpoint("GET /events", undefined, 401)))).toMatchObject({
      status: "error",
      reason: expect.stringMatching(/^not judged: GET \/events with the valid key got no answer/),
    });
  });
});
