// EVT-UNFILTERED (spec 4.1: "Returns all events in the repository") cannot rest on the unfiltered answer alone:
// discovery takes that answer as the baseline, so compared with the baseline it is compared with itself. Its
// independent evidence are the spanning queries: the year-0001 bounds, probes a sender may refuse, and GE and LT
// one known event's eventTime, values of the target's own that together hold every event. A sender that cuts the
// unfiltered answer short and refuses the probes fails; one that answers in full passes, also while it captures
// events during the run.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report, RequirementResult } from "../../src/engine/types.ts";
import { generateDataset } from "../../src/generate/index.ts";
import { resolveRunOptions } from "../../src/harness/options.ts";
import { runTracecheck } from "../../src/harness/run.ts";
import { type EpcisEvent, type EventQuery, runOracle } from "../../src/model/index.ts";
import { tempDirOfFile } from "../support/cli.ts";
import { type RepositoryPolicy, startRepository } from "../support/event-repository.ts";

// A run of one requirement; the bound only catches a hang on a loaded machine.
const RUN = 120_000;
const EVENTS = generateDataset({ seed: 4, events: 60 }).events;
/** How many events the cut-short unfiltered answer holds. */
const CUT = 40;

const dirOf = tempDirOfFile("unfiltered-spanning");

/** Refuses, as a sender may, a time bound in the first millennium: the harness's probes, not the target's values. */
function refusingProbes(events: readonly EpcisEvent[], q: EventQuery): EpcisEvent[] {
  for (const bound of [q.GE_eventTime, q.LT_eventTime, q.GE_recordTime, q.LT_recordTime]) {
    if (bound?.startsWith("0")) throw new Error(`bound out of range: ${bound}`);
  }
  return runOracle(events, q);
}

/** Runs EVT-UNFILTERED against a repository of `events` answering as `select` does, in this process. */
async function judge(label: string, events: EpcisEvent[], select: RepositoryPolicy["select"]) {
  const repository = await startRepository(events, { select });
  try {
    const reports = path.join(dirOf(), label);
    const opts = resolveRunOptions(
      { target: repository.origin, suite: "events", seed: "1", "report-dir": reports, quiet: true },
      {},
      {},
    );
    opts.onlyRequirements = ["EVT-UNFILTERED"];
    const io = { out: () => {}, err: () => {}, color: false };
    const { exitCode } = await runTracecheck(opts, io);
    const report = JSON.parse(await readFile(path.join(reports, "report.json"), "utf8")) as Report;
    const verdict = report.requirements.find((r) => r.id === "EVT-UNFILTERED");
    if (verdict === undefined) throw new Error("no verdict for EVT-UNFILTERED");
    return { exitCode, verdict, requests: [...repository.requests] };
  } finally {
    await repository.close();
  }
}

describe("an unfiltered answer cut short, the year-0001 probes refused", () => {
  let j: { exitCode: number; verdict: RequirementResult; requests: string[] };
  beforeAll(async () => {
    j = await judge("cut", [...EVENTS], (events, q) => {
      const answer = refusingProbes(events, q);
      return Object.keys(q).length === 0 ? answer.slice(0, CUT) : answer;
    });
  }, RUN);

  it("fails EVT-UNFILTERED on the events GE and LT a known eventTime answer", () => {
    expect(j.exitCode).toBe(1);
    expect(j.verdict.status).toBe("fail");
    expect(j.verdict.reason).toContain(`${EVENTS.length - CUT} expected event(s) missing`);
    const missing = j.verdict.evidence[0]?.missing ?? [];
    const served = new Set(EVENTS.slice(0, CUT).map((e) => e.eventID));
    expect(missing.length).toBe(EVENTS.length - CUT);
    for (const id of missing) expect(served.has(id), id).toBe(false);
    // The pair was asked, in UTC, and the probes were refused: the pair alone is the evidence.
    const asked = j.requests.map((r) => new URLSearchParams(r.split("?")[1] ?? ""));
    const ge = asked.find((p) => p.get("GE_eventTime")?.startsWith("2") && p.size === 1)?.get("GE_eventTime");
    expect(ge).toMatch(/Z$/);
    expect(asked.some((p) => p.get("LT_eventTime") === ge && p.size === 1)).toBe(true);
  });
});

describe("a whole unfiltered answer, the probes refused", () => {
  it(
    "passes EVT-UNFILTERED",
    async () => {
      const j = await judge("whole", [...EVENTS], refusingProbes);
      expect(j.exitCode).toBe(0);
      expect(j.verdict.status).toBe("pass");
      // The pass shows the unfiltered answer it judged.
      expect(new URL(j.verdict.evidence[0]?.request?.url ?? "").search).toBe("");
    },
    RUN,
  );
});

describe("a repository that captures an event as it answers the spanning pair", () => {
  it(
    "passes EVT-UNFILTERED: the unfiltered query is asked again after the pair, and holds the event",
    async () => {
      const held = [...EVENTS];
      const late: EpcisEvent = {
        ...EVENTS[0]!,
        eventID: "urn:uuid:6d1c3f0e-8a55-4f6b-9d0e-2b7a0c5e9f11",
        eventTime: "2099-01-01T00:00:00Z",
        eventTimeZoneOffset: "+00:00",
      };
      const j = await judge("capturing", held, (events, q) => {
        // Captured as the repository answers GE the known eventTime, after discovery read the unfiltered answer.
        if (q.GE_eventTime?.startsWith("2") && !held.includes(late)) held.push(late);
        return refusingProbes(events, q);
      });
      expect(held).toContain(late);
      expect(j.exitCode).toBe(0);
      expect(j.verdict.status).toBe("pass");
      const unfiltered = j.requests.filter((r) => r === "/events");
      expect(unfiltered.length).toBeGreaterThanOrEqual(2);
    },
    RUN,
  );
});
