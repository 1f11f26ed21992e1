// The receiver class's proof at the effort of npm test: the reference receiver judged by the receiver session
// against every receiver configuration of the sender, reading link sets and following the resolver's redirects
// (it must come out clean both ways), and with each named client fault in one configuration where the fault
// shows (every requirement it names must catch it, and nothing but a failed MUST fails the session). The session
// runs in this process; a faulty receiver runs as `node bin/tracecheck.js trace --faults NAME` with the setup in
// its environment, a clean one in this process too, to keep npm test quick. test/receiver/cli.test.ts runs the
// whole command; `npm run prove` runs the full matrix through it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  QUICK_RECEIVER_EFFORT,
  type ReceiverMatrix,
  receiverCases,
  runReceiverMatrix,
} from "../../src/prove/receiver-matrix.ts";
import { RECEIVER_FAULTS } from "../../src/receiver/faults.ts";
import { RECEIVER_CONFIGURATIONS } from "../../src/reference/receiver-configurations.ts";
import { tempDir } from "../support/cli.ts";

let matrix: ReceiverMatrix;
let remove: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir("receiver-matrix");
  remove = tmp.remove;
  matrix = await runReceiverMatrix({
    effort: QUICK_RECEIVER_EFFORT,
    concurrency: 2,
    workDir: tmp.dir,
    runTimeoutMs: 120_000,
    mode: (c) => (c.fault === undefined ? "inline" : "session"),
  });
}, 300_000);

afterAll(async () => {
  await remove?.();
});

function row(label: string) {
  const found = matrix.rows.find((r) => r.label === label);
  expect(found, `${label} was not run`).toBeDefined();
  return found!;
}

describe("the reference receiver judged by tracecheck receiver", () => {
  it("runs every receiver configuration clean and every fault once", () => {
    const labels = receiverCases(QUICK_RECEIVER_EFFORT).map((c) => c.label);
    for (const c of RECEIVER_CONFIGURATIONS) {
      expect(labels).toContain(`clean-${c.name}`);
      expect(labels).toContain(`clean-redirect-${c.name}`);
    }
    for (const f of RECEIVER_FAULTS)
      expect(labels.filter((l) => l.startsWith(`fault-${f.id}-`))).toHaveLength(1);
  });

  it.each(["default", ...RECEIVER_CONFIGURATIONS.map((c) => c.name)])(
    "passes the receiver class against the %s sender: exit 0, no fail, no warn, no error",
    (configuration) => {
      const r = row(`clean-${configuration}`);
      expect(r.note ?? "", r.label).toBe("");
      expect(r.verdict).toBe("clean");
      expect(r.exitCode).toBe(0);
    },
  );

  it.each(["default", ...RECEIVER_CONFIGURATIONS.map((c) => c.name)])(
    "passes the receiver class against the %s sender following the resolver's redirects instead of link sets",
    (configuration) => {
      const r = row(`clean-redirect-${configuration}`);
      expect(r.note ?? "", r.label).toBe("");
      expect(r.verdict).toBe("clean");
      expect(r.exitCode).toBe(0);
    },
  );

  it.each(RECEIVER_FAULTS.map((f) => [f.id, f]))(
    "catches the client fault %s by every requirement it names",
    (_, fault) => {
      const r = matrix.rows.find((x) => x.fault === fault.id)!;
      expect(r.verdict, `${r.label}: ${r.note ?? ""}`).toBe("caught");
      expect([...r.caughtBy].sort()).toEqual([...fault.violates].sort());
      // A MUST caught fails the session; a SHOULD (RCV-KEY-NOT-IN-URL, RCV-PAGING, RCV-413-NARROW) only warns.
      expect(r.exitCode).toBe(r.failed.length > 0 ? 1 : 0);
    },
  );

  it("fails alphabetic AIs under RCV-RESOLVER-PATH alone: what the refused link sets leave out is blocked", () => {
    const r = matrix.rows.find((x) => x.fault === "alphabetic-ai")!;
    // Neither the product's master data nor the query interface the refused link sets would have named.
    expect(r.failed).toEqual(["RCV-RESOLVER-PATH"]);
  });
});
