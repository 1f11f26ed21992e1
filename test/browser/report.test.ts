// report.html as a person opens it: in headless Chromium (Debian's package, driven by playwright-core, which
// downloads no browser), from reports that two real runs of the CLI wrote: one passing, one with a fault.
import { access, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";

const CHROMIUM = "/usr/bin/chromium";
const FAULT_REQUIREMENT = "EVT-TIME-LT-EVENT";

let tmp: string;
let context: BrowserContext;

/** A page with every console error, page error and request it makes recorded. */
async function open(file: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  return { page, errors, requests };
}

async function run(dir: string, extra: string[]): Promise<number | null> {
  const args = ["run", "--suite", "events", "--seed", "3", "--runs", "5", "--events", "60", "--quiet"];
  const result = await runCli([...args, ...extra, "--report-dir", dir]);
  if (result.code !== 0 && result.code !== 1)
    throw new Error(`tracecheck run exited ${result.code}: ${result.stderr}`);
  return result.code;
}

beforeAll(async () => {
  await access(CHROMIUM).catch(() => {
    throw new Error(
      `${CHROMIUM} is missing; install Debian's chromium package (apt-get install -y chromium).`,
    );
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), "tracecheck-browser-"));
  const [pass, fail] = await Promise.all([
    run(path.join(tmp, "pass"), []),
    run(path.join(tmp, "fail"), ["--faults", "lt-event-inclusive"]),
  ]);
  expect([pass, fail]).toEqual([0, 1]);
  context = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await context?.close();
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

describe("report.html in Chromium", () => {
  it("opens a passing report with the PASS banner first, and no console error", async () => {
    const { page, errors, requests } = await open(path.join(tmp, "pass", "report.html"));
    expect(await page.locator("body > *").first().getAttribute("id")).toBe("verdict");
    expect(await page.locator("#verdict .word").innerText()).toBe("PASS");
    expect(await page.locator("#verdict").innerText()).toContain("0 MUST failures");
    expect(await page.locator("details.requirement").count()).toBe(0);
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith("file:"))).toBe(true);
    await page.close();
  });

  it("shows a failure's missing or extra event and its curl line, and hides them with its details", async () => {
    const { page, errors, requests } = await open(path.join(tmp, "fail", "report.html"));
    expect(await page.locator("#verdict .word").innerText()).toBe("FAIL");
    expect(await page.locator("#verdict").innerText()).toContain("1 MUST failure");
    const failure = page.locator(`#evidence-${FAULT_REQUIREMENT}`);
    const summary = failure.locator("> summary");
    const eventId = failure.locator("table.events td.id").first();
    const curl = failure.locator(".curl pre").first();
    // Closed, then opened again as a reader would.
    await summary.click();
    expect(await eventId.isVisible()).toBe(false);
    await summary.click();
    expect(await eventId.isVisible()).toBe(true);
    expect(await eventId.innerText()).toMatch(/\S/);
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.innerText()).toMatch(/^curl .*LT_eventTime=/s);
    expect(await curl.innerText()).toContain("$TRACECHECK_API_KEY");
    // The field the filter reads, with the event's own value.
    expect(await failure.locator("table.events th").allInnerTexts()).toContain("eventTime (LT_eventTime)");
    // The exchange's body is collapsed until asked for, then indented.
    const body = failure.locator("details.exchange pre.json").first();
    expect(await body.isVisible()).toBe(false);
    await failure.locator("details.exchange > summary").first().click();
    expect(await body.isVisible()).toBe(true);
    expect(await body.innerText()).toMatch(/\n {2}"type": "EPCISQueryDocument"/);
    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith("file:"))).toBe(true);
    await page.close();
  });

  it("prints with every block open and without the page's navigation", async () => {
    const { page, errors } = await open(path.join(tmp, "fail", "report.html"));
    await page.emulateMedia({ media: "print" });
    const failure = page.locator(`#evidence-${FAULT_REQUIREMENT}`);
    await failure.locator("> summary").click();
    expect(await failure.locator("details.exchange pre.json").first().isVisible()).toBe(true);
    expect(await failure.locator(".curl pre").first().isVisible()).toBe(true);
    expect(await page.locator("nav.toc").isVisible()).toBe(false);
    const pdf = await page.pdf();
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(errors).toEqual([]);
    await page.close();
  });
});
