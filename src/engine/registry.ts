// The requirement registry (suites/requirements.yaml): loaded once, checked whole, so that a mistyped
// level or a duplicated id stops a run before any verdict is attached to it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "../definition/locations.ts";
import { parseYamlCached } from "../definition/yaml-cache.ts";
import { CONFORMANCE_CLASSES, type ConformanceClass, type Level, type Requirement } from "./types.ts";

export { CONFORMANCE_CLASSES };

export const DEFAULT_REGISTRY_FILE = path.join(REPO_ROOT, "suites", "requirements.yaml");

export const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];

const ID_PATTERN = /^[A-Z]+(-[A-Z0-9]+)+$/;
// Quoted in the file: unquoted, YAML would read "4.10" as the number 4.1.
const SECTION_PATTERN = /^\d+(\.\d+)*$/;
const REQUIREMENT_FIELDS = new Set([
  "id",
  "section",
  "level",
  "definitionLevel",
  "carrier",
  "class",
  "title",
  "rule",
  "spec",
  "tests",
]);
const UNTESTED_FIELDS = new Set(["section", "what", "why"]);

/** A behaviour deliberately left unchecked, with the reason. */
export interface UntestedBehaviour {
  section: string;
  what: string;
  why: string;
}

export interface Registry {
  requirements: Requirement[];
  byId: Map<string, Requirement>;
  untested: UntestedBehaviour[];
}

export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistryError";
  }
}

export async function loadRegistry(file: string = DEFAULT_REGISTRY_FILE): Promise<Registry> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new RegistryError(
      `${file}: the requirement registry could not be read (${(error as Error).message}); check the path.`,
    );
  }
  let doc: unknown;
  try {
    doc = parseYamlCached(text);
  } catch (error) {
    throw new RegistryError(`${file}: not valid YAML (${(error as Error).message}); fix the syntax.`);
  }
  return parseRegistry(doc, file);
}

/** Validates an already parsed registry document; `file` only names it in messages. */
export function parseRegistry(doc: unknown, file: string): Registry {
  if (!isRecord(doc)) {
    throw new RegistryError(
      `${file}: the registry must be a mapping with a requirements list; fix the file.`,
    );
  }
  for (const key of Object.keys(doc)) {
    if (key !== "requirements" && key !== "untested") {
      throw new RegistryError(
        `${file}: unknown top-level key "${key}"; only requirements and untested are allowed.`,
      );
    }
  }
  if (!Array.isArray(doc.requirements) || doc.requirements.length === 0) {
    throw new RegistryError(`${file}: requirements must be a non-empty list; add the requirements.`);
  }
  const requirements: Requirement[] = [];
  const byId = new Map<string, Requirement>();
  doc.requirements.forEach((entry: unknown, index: number) => {
    const requirement = checkRequirement(entry, `${file}: requirement #${index + 1}`);
    const earlier = byId.get(requirement.id);
    if (earlier !== undefined) {
      throw new RegistryError(
        `${file}: requirement #${index + 1} (${requirement.id}): duplicate id, already used by requirement #${
          requirements.indexOf(earlier) + 1
        }; give it a new id.`,
      );
    }
    requirements.push(requirement);
    byId.set(requirement.id, requirement);
  });
  const rawUntested = doc.untested ?? [];
  if (!Array.isArray(rawUntested)) {
    throw new RegistryError(`${file}: untested must be a list of { section, what, why }; fix the file.`);
  }
  const untested = rawUntested.map((entry: unknown, index: number) =>
    checkUntested(entry, `${file}: untested #${index + 1}`),
  );
  return { requirements, byId, untested };
}

/** The requirement with this id; an unknown id is a harness bug, so it throws. */
export function requirement(registry: Registry, id: string): Requirement {
  const found = registry.byId.get(id);
  if (found === undefined) {
    throw new RegistryError(
      `Unknown requirement id "${id}": it is not in the registry; add it to suites/requirements.yaml or fix the id.`,
    );
  }
  return found;
}

function checkRequirement(entry: unknown, where: string): Requirement {
  if (!isRecord(entry)) {
    throw new RegistryError(
      `${where}: must be a mapping of id, section, level, class, title, rule, spec; fix it.`,
    );
  }
  const id = entry.id;
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw new RegistryError(
      `${where}: id ${JSON.stringify(id)} is missing or not of the form PREFIX-PART (upper case, digits, dashes); fix it.`,
    );
  }
  const named = `${where} (${id})`;
  checkKeys(entry, REQUIREMENT_FIELDS, named);
  const section = checkSection(entry.section, named);
  const level = checkLevel(entry.level, "level", named);
  const cls = entry.class;
  if (!CONFORMANCE_CLASSES.includes(cls as ConformanceClass)) {
    throw new RegistryError(
      `${named}: class ${JSON.stringify(cls)} is not one of ${CONFORMANCE_CLASSES.join(", ")}; fix the class.`,
    );
  }
  const result: Requirement = {
    id,
    section,
    level,
    class: cls as ConformanceClass,
    title: checkText(entry.title, "title", named),
    rule: checkText(entry.rule, "rule", named),
    spec: checkText(entry.spec, "spec (the sentence of the spec the rule rests on, quoted exactly)", named),
  };
  if (entry.carrier !== undefined) {
    result.carrier = checkText(
      entry.carrier,
      "carrier (the sentence of the spec that makes the rule MUST)",
      named,
    );
  }
  if (entry.definitionLevel !== undefined) {
    result.definitionLevel = checkLevel(entry.definitionLevel, "definitionLevel", named);
  }
  if (entry.tests !== undefined) {
    const tests = entry.tests;
    if (!Array.isArray(tests) || !tests.every((t) => typeof t === "string" && t.trim() !== "")) {
      throw new RegistryError(`${named}: tests must be a list of non-empty test names; fix the list.`);
    }
    result.tests = tests as string[];
  }
  return result;
}

function checkLevel(value: unknown, field: string, where: string): Level {
  if (!LEVELS.includes(value as Level)) {
    throw new RegistryError(
      `${where}: ${field} ${JSON.stringify(value)} is not one of ${LEVELS.join(", ")}; fix the ${field}.`,
    );
  }
  return value as Level;
}

function checkUntested(entry: unknown, where: string): UntestedBehaviour {
  if (!isRecord(entry)) {
    throw new RegistryError(`${where}: must be a mapping of section, what, why; fix it.`);
  }
  checkKeys(entry, UNTESTED_FIELDS, where);
  return {
    section: checkSection(entry.section, where),
    what: checkText(entry.what, "what", where),
    why: checkText(entry.why, "why", where),
  };
}

function checkKeys(entry: Record<string, unknown>, allowed: Set<string>, where: string): void {
  for (const key of Object.keys(entry)) {
    if (!allowed.has(key)) {
      throw new RegistryError(
        `${where}: unknown field "${key}"; the fields are ${[...allowed].join(", ")}, so fix its name.`,
      );
    }
  }
}

function checkSection(value: unknown, where: string): string {
  if (typeof value !== "string" || !SECTION_PATTERN.test(value)) {
    throw new RegistryError(
      `${where}: section ${JSON.stringify(value)} must be a quoted spec heading number such as "4.1"; fix it.`,
    );
  }
  return value;
}

function checkText(value: unknown, field: string, where: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new RegistryError(`${where}: ${field} is missing or empty; write it.`);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
