// The registry of requirements (suites/requirements.yaml) as written, for tests that hold faults and checks to
// the requirements they name.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { REPO_ROOT } from "./cli.ts";

export interface RegistryEntry {
  id: string;
  level: string;
  /** The level against a definition the user gives, where it differs from `level`. */
  definitionLevel?: string;
}

export function registryEntries(): RegistryEntry[] {
  const registry = parseYaml(readFileSync(path.join(REPO_ROOT, "suites/requirements.yaml"), "utf8")) as {
    requirements: RegistryEntry[];
  };
  return registry.requirements;
}
