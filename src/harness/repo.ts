// Where the repository is, so that the command works from any working directory.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEFAULT_DEFINITION = path.join(REPO_ROOT, "schemas", "interface.openapi.yaml");

export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}
