// Where the repository is, so that the command works from any working directory.
import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_DEFINITION_FILE, REPO_ROOT } from "../definition/index.ts";

export { REPO_ROOT };
export const DEFAULT_DEFINITION = DEFAULT_DEFINITION_FILE;

export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}
