// The help texts against CONTRACT.md itself: every command it names, and every option of its run and serve blocks.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTRACT_FILE, runCli } from "../support/cli.ts";

const contract = readFileSync(CONTRACT_FILE, "utf8");

/** The commands of the contract's "## `tracecheck <command>`" headings. */
function contractCommands(): string[] {
  return [...contract.matchAll(/^## `tracecheck (\w+)/gm)].map((m) => m[1]!);
}

/** The long options written in the first code block after the heading of a command. */
function contractOptions(command: string): string[] {
  const heading = contract.indexOf(`## \`tracecheck ${command}\``);
  expect(heading, `CONTRACT.md has a ${command} section`).toBeGreaterThanOrEqual(0);
  const open = contract.indexOf("```", heading);
  const close = contract.indexOf("```", open + 3);
  const block = contract.slice(open + 3, close);
  return [...new Set([...block.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => `--${m[1]}`))];
}

describe("tracecheck --help", () => {
  it("names every command of CONTRACT.md, and exits 0", async () => {
    const commands = contractCommands();
    expect(commands).toEqual(expect.arrayContaining(["run", "serve", "faults", "fixtures", "diff"]));
    const { code, stdout } = await runCli(["--help"]);
    expect(code).toBe(0);
    for (const c of commands) expect(stdout, c).toMatch(new RegExp(`^\\s+${c}\\s`, "m"));
  });

  it("without a command prints the same help but exits 2", async () => {
    const [bare, help] = await Promise.all([runCli([]), runCli(["--help"])]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(help.stdout);
  });
});

describe("tracecheck <command> --help", () => {
  it("run --help lists every option of CONTRACT.md's run block", async () => {
    const options = contractOptions("run");
    expect(options).toEqual(expect.arrayContaining(["--target", "--api-key", "--concurrency", "--rate"]));
    const { code, stdout } = await runCli(["run", "--help"]);
    expect(code).toBe(0);
    const missing = options.filter((o) => !new RegExp(`(^|[\\s;])${o}(?![\\w-])`, "m").test(stdout));
    expect(missing).toEqual([]);
  });

  it("serve --help lists every option of CONTRACT.md's serve block", async () => {
    const options = contractOptions("serve");
    expect(options).toEqual(expect.arrayContaining(["--port", "--resolver-port", "--faults"]));
    const { code, stdout } = await runCli(["serve", "--help"]);
    expect(code).toBe(0);
    for (const o of options) expect(stdout, o).toContain(o);
  });

  it.each([
    ["faults", ["--json"]],
    ["fixtures", ["--seed", "--events", "--out"]],
    ["diff", ["report.json"]],
  ])("%s --help shows its usage", async (command, words) => {
    const { code, stdout, stderr } = await runCli([command, "--help"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain(`tracecheck ${command}`);
    for (const w of words) expect(stdout).toContain(w);
  });
});
