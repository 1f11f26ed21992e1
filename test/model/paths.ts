// Third-party artefacts are read where they lie, never copied into the repository. A mutation run executes
// these tests from a sandbox copy of the repository, whose sibling is not shared/; it names the folder in
// TRACECHECK_SHARED_DIR instead (stryker.config.mjs).
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sharedRoot = process.env["TRACECHECK_SHARED_DIR"] ?? path.resolve(repoRoot, "../shared");

export const sharedPath = (...parts: string[]): string => path.resolve(sharedRoot, ...parts);
