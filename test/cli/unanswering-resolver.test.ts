// No certification of a resolver that answered nothing: without --party or --gln, identifiers a resolver declines
// may be other companies' and are skipped, fairly; but when it declines every one, the run judged none of its
// link sets, so it exits 2 and says to name the sender, rather than pass. Named, the same resolver fails.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Report } from "../../src/engine/types.ts";
import { runCli, tempDir } from "../support/cli.ts";
import { type ServeProcess, startServe } from "../support/serve.ts";

const KEY = "unanswering-resolver-key-7";

let work: Awaited<ReturnType<typeof tempDir>>;
let serve: ServeProcess | undefined;
let nothing: Server | undefined;
let nothingBase = "";

beforeAll(async () => {
  work = await tempDir("unanswering-resolver");
  serve = await startServe(["--seed", "4", "--events", "60", "--api-key", KEY]);
  // A resolver that answers 404 to every identifier.
  nothing = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => nothing!.listen(0, "127.0.0.1", resolve));
  nothingBase = `http://127.0.0.1:${(nothing.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await new Promise<void>((resolve) => (nothing ? nothing.close(() => resolve()) : resolve()));
  await work?.remove();
});

async function run(label: string, extra: string[]) {
  const reportDir = path.join(work.dir, label);
  const r = await runCli([
    "run",
    "--target",
    serve!.eventsBase,
    "--resolver",
    nothingBase,
    "--api-key",
    KEY,
    "--suite",
    "resolver",
    "--runs",
    "2",
    "--seed",
    "3",
    "--report-dir",
    reportDir,
    ...extra,
  ]);
  const report = JSON.parse(await readFile(path.join(reportDir, "report.json"), "utf8")) as Report;
  return { ...r, report };
}

test("without --party or --gln, a resolver that answered no identifier is not certified: exit 2, saying why", async () => {
  const r = await run("unnamed", []);
  expect(r.code, r.stderr).toBe(2);
  expect(r.report.verdict).toBe("incomplete");
  expect(r.report.incompleteReason).toMatch(/answered none of the identifiers .* --party and --gln/);
  expect(r.report.summary.fail).toBe(0);
  const paths = r.report.requirements.filter((q) => q.id.startsWith("RES-PATH-"));
  expect(paths.length).toBeGreaterThan(0);
  expect(paths.every((q) => q.status === "skip")).toBe(true);
}, 120_000);

test("named with --party, the same resolver fails on the sender's own identifiers", async () => {
  const r = await run("named", ["--party", `${serve!.resolverBase}/417/0614141000005`]);
  expect(r.code, r.stderr).toBe(1);
  expect(r.report.verdict).toBe("fail");
}, 120_000);
