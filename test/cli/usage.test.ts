// Mistakes on the command line and a target that is not there: exit 2 and one sentence (CONTRACT.md exit status).
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, withTempDir } from "../support/cli.ts";
import { expectOneSentence } from "../support/sentence.ts";

/** The one message line tracecheck writes for a usage mistake, without its "tracecheck: " prefix. */
function message(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines, "a single line on stderr").toHaveLength(1);
  expect(lines[0]).toMatch(/^tracecheck: /);
  return lines[0]!.slice("tracecheck: ".length);
}

describe("bad arguments exit 2 with one sentence", () => {
  it.each([
    [["run", "--nope"], "--nope"],
    [["run", "--runs", "0"], "--runs"],
    [["run", "--suite", "nope"], "nope"],
    [["run", "--target"], "--target"],
    [["run", "--quiet=yes"], "--quiet"],
    [["run", "stray"], "stray"],
    [["run", "--target", "not-a-url"], "--target"],
    [["run", "--dataset", "/nonexistent/tracecheck/dataset.json"], "/nonexistent/tracecheck/dataset.json"],
    [["bogus"], "bogus"],
    [["serve", "--port", "x"], "--port"],
    [["serve", "--dataset", "d.json", "--seed", "1"], "--dataset"],
    [["fixtures", "--seed", "1"], "--out"],
    [["diff", "only-one.json"], "diff"],
    [["faults", "--jsonn"], "--jsonn"],
    [["run", "--runs", "-1"], "--runs"],
    [["run", "--timeout", "-5"], "--timeout"],
    [["run", "--runs", "many"], "--runs"],
    [["run", "--target", "http://127.0.0.1:9", "--faults", "lt-event-inclusive"], "--faults"],
    [["diff", "package.json", "package.json"], "not a tracecheck report"],
  ])("tracecheck %j", async (args, named) => {
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    const text = message(stderr);
    expectOneSentence(text);
    expect(text).toContain(named);
  });
});

describe("a --dataset file that is not a dataset", () => {
  it.each([["serve"], ["load", "--target", "http://127.0.0.1:1"]])(
    "tracecheck %s refuses it in one sentence, exit 2, before anything starts",
    async (...command) => {
      await withTempDir("dataset", async (dir) => {
        const file = path.join(dir, "dataset.json");
        await writeFile(file, "[]");
        const { code, stdout, stderr } = await runCli([...command, "--dataset", file]);
        expect(code).toBe(2);
        expect(stdout).toBe("");
        const text = message(stderr);
        expectOneSentence(text);
        expect(text).toContain(`--dataset ${file} is not a dataset tracecheck can read`);
      });
    },
  );
});

describe("serve on a port another process holds", () => {
  it("refuses it in one sentence naming the option to change, exit 2", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    try {
      const taken = (holder.address() as AddressInfo).port;
      for (const [args, option] of [
        [["--port", String(taken)], "--port"],
        [["--port", "0", "--resolver-port", String(taken)], "--resolver-port"],
      ] as const) {
        const { code, stdout, stderr } = await runCli(["serve", ...args]);
        expect(code).toBe(2);
        expect(stdout).toBe("");
        const text = message(stderr);
        expectOneSentence(text);
        expect(text).toBe(`port ${taken} is in use; choose another ${option}.`);
      }
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it("says so for receiver too, exit 2", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    try {
      const taken = (holder.address() as AddressInfo).port;
      const { code, stderr } = await runCli(["receiver", "--port", String(taken), "--", "true"]);
      expect(code).toBe(2);
      expect(stderr).toContain(`the sender could not start: port ${taken} is in use; choose another --port.`);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it("refuses --port and --resolver-port naming the same port", async () => {
    const { code, stderr } = await runCli(["serve", "--port", "40123", "--resolver-port", "40123"]);
    expect(code).toBe(2);
    expect(message(stderr)).toContain("--port and --resolver-port both name port 40123");
  });
});

describe("run --json", () => {
  it.each([
    [["run", "--target", "foo", "--json"], "--target"],
    [["run", "--json", "--nope"], "--nope"],
    [["run", "--json", "--report-dir", "/proc/tracecheck/reports"], "/proc/tracecheck/reports"],
  ])(
    "tracecheck %j prints the one object of an incomplete run, with the reason, and no reports",
    async (args, named) => {
      const { code, stdout, stderr } = await runCli(args);
      expect(code).toBe(2);
      const printed = JSON.parse(stdout) as Record<string, unknown>;
      expect(printed).toMatchObject({ verdict: "incomplete", exitCode: 2, summary: null, reports: null });
      expect(printed["incompleteReason"]).toContain(named);
      // The person reading the console sees the same sentence on stderr.
      expect(stderr).toContain(printed["incompleteReason"]);
    },
  );
});

describe("tracecheck --version", () => {
  it("prints the version of package.json and exits 0", async () => {
    const { code, stdout } = await runCli(["--version"]);
    const { version } = JSON.parse(await (await import("node:fs/promises")).readFile("package.json", "utf8"));
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`tracecheck ${version}`);
  });
});

describe("a target nothing listens on", () => {
  it("exits 2 and says the target is unreachable", async () => {
    // Port 1 is privileged and outside the ephemeral range: no process is handed it, as a just-closed port may be.
    const target = "http://127.0.0.1:1";
    const { code, stderr } = await runCli([
      "run",
      "--target",
      target,
      "--seed",
      "1",
      "--suite",
      "events",
      "--quiet",
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(target);
    expect(stderr).toMatch(/unreachable/);
    expect(stderr).not.toMatch(/harness error/);
  });
});
