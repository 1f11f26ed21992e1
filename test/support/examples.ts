// The published EPCIS examples, read where they live beside the repository, and the files of a folder of them.
import { readdirSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../src/definition/index.ts";

export const EPCIS_EXAMPLES = path.resolve(REPO_ROOT, "../shared/epcis/examples");

/** The files below `dir`, at any depth, whose names end in `suffix`, sorted. */
export function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
