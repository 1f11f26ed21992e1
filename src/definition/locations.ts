import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository root, found from this file's place in src/definition/: two levels up when it runs as written,
 * three when it runs compiled into dist/src/definition/ (bin/tracecheck.js).
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const UP = path.resolve(HERE, "..", "..");
export const REPO_ROOT =
  path.basename(UP) === "dist" && existsSync(path.join(UP, "..", "package.json")) ? path.dirname(UP) : UP;

export const DEFAULT_DEFINITION_FILE = path.join(REPO_ROOT, "schemas", "interface.openapi.yaml");

export const DEFAULT_SCHEMA_CACHE = path.join(REPO_ROOT, "schemas", "cache");

/** What tracecheck keeps between runs to start faster (compiled validators, definitions checked): never a verdict's input. */
export const START_UP_CACHE = path.join(REPO_ROOT, "node_modules", ".cache", "tracecheck");

/** The mirror a checkout next to the shared artefacts has, so tests and runs work without network. */
export const DEFAULT_SIBLING_MIRROR = path.join(REPO_ROOT, "..", "shared", "epcis", "mirror");

/** The published EPCIS 2.0.1 JSON schema, used when a definition references none. */
export const EPCIS_SCHEMA_URL = "https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json";
