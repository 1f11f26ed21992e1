// What a run and a receiver session share before and after their work: a report directory found writable
// before anything is sent, the hash of the definition that shaped the verdicts, and the summary counts.
import { createHash } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RequirementResult, Summary } from "./types.ts";

/**
 * Creates the directory and the missing ones above it, one level at a time: node's recursive mkdir never returns
 * for a path under /proc, where every level reports ENOENT.
 */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    const parent = path.dirname(dir);
    if (code !== "ENOENT" || parent === dir) throw err;
    await makeDirectory(parent);
  }
  try {
    await mkdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}

/** Why the report directory cannot take the reports, in one sentence, or undefined when it can. */
export async function reportDirProblem(dir: string): Promise<string | undefined> {
  const probe = path.join(dir, `.tracecheck-write-check-${process.pid}`);
  try {
    await makeDirectory(dir);
    await writeFile(probe, "");
    await unlink(probe);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return `the report directory ${dir} cannot be written (${code}); pass --report-dir with a directory you can write to.`;
  }
}

/** The sha-256 of the file's bytes, hex; of no bytes when it cannot be read. */
export async function sha256Of(file: string): Promise<string> {
  try {
    return createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  } catch {
    return createHash("sha256").update("").digest("hex");
  }
}

/** Counts of each status over the requirements. */
export function summarise(requirements: readonly RequirementResult[]): Summary {
  const summary: Summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const r of requirements) summary[r.status] += 1;
  return summary;
}
