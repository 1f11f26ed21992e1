import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository root: the nearest folder above this file that holds a package.json. This file runs from
 * src/definition/ as written, and from somewhere under dist/ bundled (scripts/build.js); neither folder has a
 * package.json of its own.
 */
function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..", "..");
  }
}

const HERE = fileURLToPath(import.meta.url);

export const REPO_ROOT = repositoryRoot(path.dirname(HERE));

/** How a process runs tracecheck: the bundle the build made in dist/, or the TypeScript sources through tsx. */
export type CodeForm = "bundle" | "sources";

/**
 * The form this process runs (bin/launch.js chooses): code that starts more code (the engine its suite files, a run
 * its reference thread) starts it in the same form.
 */
export const CODE_FORM: CodeForm = HERE.startsWith(path.join(REPO_ROOT, "dist") + path.sep)
  ? "bundle"
  : "sources";

/**
 * Where the source at `relative` (a path under `root`, like src/cli/main.ts, or a folder) is run from in `form`:
 * itself, or its file in the bundle, which keeps its path under dist/ (scripts/build.js).
 */
export function pathInForm(root: string, form: CodeForm, relative: string): string {
  return form === "sources"
    ? path.join(root, relative)
    : path.join(root, "dist", relative.replace(/\.ts$/, ".js"));
}

export const DEFAULT_DEFINITION_FILE = path.join(REPO_ROOT, "schemas", "interface.openapi.yaml");

export const DEFAULT_SCHEMA_CACHE = path.join(REPO_ROOT, "schemas", "cache");

/** What tracecheck keeps between runs to start faster (compiled validators, definitions checked): never a verdict's input. */
export const START_UP_CACHE = path.join(REPO_ROOT, "node_modules", ".cache", "tracecheck");

/** The mirror a checkout next to the shared artefacts has, so tests and runs work without network. */
export const DEFAULT_SIBLING_MIRROR = path.join(REPO_ROOT, "..", "shared", "epcis", "mirror");

/** The published EPCIS 2.0.1 JSON schema, used when a definition references none. */
export const EPCIS_SCHEMA_URL = "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json";
