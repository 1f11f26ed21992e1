// Third-party artefacts are read where they lie, never copied into the repository.
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const sharedPath = (...parts: string[]): string => path.resolve(repoRoot, "../shared", ...parts);
