// YAML read once for all runs: the registry and the interface definition are parsed by `yaml` the first time a
// text is seen, and the value is kept as JSON under node_modules/.cache, keyed by the text and yaml's version, for
// the next run to read instead (parsing the registry was a quarter of a second of every run's start-up).
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type YAML from "yaml";
import { START_UP_CACHE } from "./locations.ts";

export const YAML_CACHE = path.join(START_UP_CACHE, "yaml");

const require = createRequire(import.meta.url);
const { version } = require("yaml/package.json") as { version: string };

/** Whether JSON carries the value unchanged: no non-finite number, nothing but plain objects and arrays. */
function jsonFaithful(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonFaithful);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as Record<string, unknown>).every(jsonFaithful);
  }
  return false;
}

/**
 * `parse(text)` of yaml, read from the cache when this text was parsed before. A syntax error throws as parse
 * does; a value JSON would not carry unchanged is never cached; a cache that cannot be read or written only costs
 * the parse.
 */
export function parseYamlCached(text: string, cacheDir: string = YAML_CACHE): unknown {
  const key = createHash("sha256").update(`yaml ${version}\n`).update(text).digest("hex");
  const file = path.join(cacheDir, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch {
    // Not cached yet, or unreadable: parse.
  }
  // yaml is loaded only when a text is not cached yet.
  const value: unknown = (require("yaml") as typeof YAML).parse(text);
  if (!jsonFaithful(value)) return value;
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written.
    }
  }
  return value;
}
