import type {
  ConformanceClass,
  Evidence,
  Report,
  RequirementResult,
  Status,
} from "../../src/engine/types.ts";

/** Text a target could send back: markup, an ANSI sequence, characters XML 1.0 forbids, a lone surrogate. */
export const HOSTILE =
  '<script>alert("x")</script> & ]]> \u0000\u0007\u001b[31mred\u001b[0m \uD800 \uFFFE <img src="https://evil.example/i.png">';

export function evidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    message: "the answer lacks events the query selects",
    request: {
      method: "GET",
      url: "http://127.0.0.1:4000/events?EQ_bizStep=shipping%7Creceiving",
      headers: { accept: "application/ld+json", "x-api-key": "[redacted]" },
    },
    response: {
      status: 200,
      headers: { "content-type": "application/ld+json" },
      bodyExcerpt: `{"note":"${HOSTILE}"}`,
      bodyBytes: 4096,
      truncated: true,
    },
    expected: { events: ["urn:uuid:a", "urn:uuid:b"] },
    actual: { events: ["urn:uuid:b", "urn:uuid:c"] },
    missing: ["urn:uuid:a"],
    extra: ["urn:uuid:c"],
    curl: "curl -H 'X-API-Key: $TRACECHECK_API_KEY' 'http://127.0.0.1:4000/events?EQ_bizStep=shipping%7Creceiving'",
    seed: 42,
    counterexample: { EQ_bizStep: ["shipping", "receiving"] },
    ...overrides,
  };
}

export function requirement(
  id: string,
  status: Status,
  overrides: Partial<RequirementResult> = {},
): RequirementResult {
  const flagged = status === "fail" || status === "warn" || status === "error";
  const result: RequirementResult = {
    id,
    level: "MUST",
    class: "events",
    section: "4.1",
    title: `title of ${id}`,
    spec: `The spec's sentence for ${id}.`,
    status,
    checks: status === "skip" ? 0 : 3,
    evidence: flagged ? [evidence()] : [],
    ...overrides,
  };
  if (status !== "pass" && result.reason === undefined) result.reason = `reason for ${id}`;
  return result;
}

export function report(requirements: RequirementResult[], overrides: Partial<Report> = {}): Report {
  const summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const r of requirements) summary[r.status] += 1;
  return {
    tool: { name: "tracecheck", version: "0.1.0" },
    target: { events: "http://127.0.0.1:4000", resolver: "http://127.0.0.1:4001" },
    seed: 1234,
    runs: 25,
    startedAt: "2025-03-01T10:00:00.000Z",
    durationMs: 1500,
    summary,
    baseline: { method: "dataset", events: 120, complete: true, note: "loaded from fixtures" },
    requirements,
    ...overrides,
  };
}

/** One requirement in every status, spread over three classes, out of class order. */
export function everyStatus(): Report {
  const cls = (c: ConformanceClass) => ({ class: c });
  return report([
    requirement("RES-LINKSET", "pass", cls("resolver")),
    requirement("EVT-TIME-LT-STRICT", "pass"),
    requirement("EVT-BIZSTEP-FORMS", "fail", { reason: `three forms differ ${HOSTILE}` }),
    requirement("EVT-413-BROAD", "warn", { level: "SHOULD" }),
    requirement("AUTH-HEADER", "skip", {
      ...cls("auth"),
      reason: "no --api-key given",
      spec: "Every request from the receiver to the sender carries the key in the HTTP header `X-API-Key`, whose value is <API_KEY>.",
    }),
    requirement("EVT-SCHEMA", "error", { reason: "schema unavailable" }),
    requirement("RES-NUMERIC-AI", "fail", cls("resolver")),
  ]);
}

/** An EPCISQueryDocument holding the events, as a sender answers GET /events. */
export function eventsAnswer(events: Record<string, unknown>[]): string {
  return JSON.stringify({
    "@context": ["https://ref.gs1.org/standards/epcis/epcis-context.jsonld"],
    type: "EPCISQueryDocument",
    schemaVersion: "2.0",
    epcisBody: { queryResults: { queryName: "SimpleEventQuery", resultsBody: { eventList: events } } },
  });
}

const BOUND = "2021-07-09T16:58:46Z";
export const AT_THE_BOUND = "urn:uuid:51fc5a92-4d0c-40b0-be17-bbc78c69cefe";
export const NOT_ANSWERED = "urn:uuid:0d7e0000-0000-4000-8000-000000000001";

/**
 * LT_eventTime answered an event whose eventTime, written at -09:30, is the bound itself; and an event the
 * query selects is missing, known by its id only.
 */
export function timeFailure(): RequirementResult {
  const url = `http://127.0.0.1:4000/events?LT_eventTime=${encodeURIComponent(BOUND)}`;
  const body = eventsAnswer([
    {
      type: "ObjectEvent",
      eventID: AT_THE_BOUND,
      eventTime: "2021-07-09T07:28:46-09:30",
      bizStep: "shipping",
    },
  ]);
  return requirement("EVT-TIME-LT-EVENT", "fail", {
    title: "LT_eventTime keeps eventTime strictly before the bound",
    evidence: [
      {
        request: { method: "GET", url, headers: { "X-API-Key": "[redacted]" } },
        response: {
          status: 200,
          headers: { "content-type": "application/ld+json" },
          bodyExcerpt: body,
          bodyBytes: body.length,
          truncated: false,
        },
        expected: { query: `LT_eventTime=${encodeURIComponent(BOUND)}`, events: 0 },
        actual: { events: 1, duplicated: [] },
        missing: [NOT_ANSWERED],
        extra: [AT_THE_BOUND],
        seed: 3,
        counterexample: { q: { LT_eventTime: BOUND } },
        curl: `curl -sS -H "X-API-Key: $TRACECHECK_API_KEY" '${url}'`,
        message: "shrunk 3 time(s); replay with --seed 3",
      },
    ],
  });
}

/** A link set defect found at `count` paths that differ only in their identifiers; the last one differs in kind. */
export function linkSetFailures(count: number): RequirementResult {
  const items: Evidence[] = Array.from({ length: count }, (_, i) => {
    const url = `http://127.0.0.1:4001/01/0950600013${String(i).padStart(4, "0")}?linkType=linkset`;
    const message =
      i === count - 1
        ? 'linkset[0]["https://ref.gs1.org/voc/epcis"] is not an array'
        : 'linkset[0]["https://ref.gs1.org/voc/defaultLink"][0] has no string title';
    return {
      request: { method: "GET", url, headers: {} },
      response: { status: 200, headers: {}, bodyExcerpt: '{"linkset":[]}', bodyBytes: 14, truncated: false },
      message,
      curl: `curl -sS '${url}'`,
    };
  });
  return requirement("RES-LINKSET-SHAPE", "fail", { class: "resolver", evidence: items });
}
