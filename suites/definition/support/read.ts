// The run's interface definition as written (ours, or a vendor's with --definition), read once per run.
// It is parsed here rather than through loadDefinition, so that a definition that is not valid OpenAPI 3.1 is
// a verdict of this class instead of an exception.
import { readFile } from "node:fs/promises";
import type { ExtensionProblem } from "../../../src/definition/index.ts";
import { parseYamlCached } from "../../../src/definition/yaml-cache.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { Evidence } from "../../../src/engine/types.ts";

/**
 * Why the class does not judge this run's definition, or undefined when it does. Without --definition the file
 * read is tracecheck's own, which says nothing about the target: its passes would be ours, reported as theirs.
 */
export function notJudgedReason(ctx: RunContext): string | undefined {
  return ctx.definitionGiven === true
    ? undefined
    : "no --definition was given, so there is no definition of the target to judge (the file read would be tracecheck's own); pass --definition FILE to check yours";
}

export type ReadDefinition = { ok: true; raw: unknown } | { ok: false; problem: string };

async function readOnce(file: string): Promise<ReadDefinition> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    return { ok: false, problem: `${file} cannot be read (${(err as Error).message})` };
  }
  try {
    // Through the parse cache the definition's loader uses: yaml itself is loaded only for a text not seen before.
    return { ok: true, raw: parseYamlCached(text) };
  } catch (err) {
    return {
      ok: false,
      problem: `${file} is not valid YAML or JSON (${(err as Error).message.split("\n")[0]})`,
    };
  }
}

/** The run's definition file (--definition, or tracecheck's own), read once per run. */
export const readRunDefinition = perRun((ctx: RunContext) => readOnce(ctx.definitionFile));

/** The value a JSON pointer ("/a/b~1c") names in a parsed document; undefined when it names nothing. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(token)];
    else if (typeof node === "object" && node !== null) node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}

const EXCERPT_CHARS = 400;

/** A value small enough for a report line: itself, else the start of its JSON text. */
export function excerpt(value: unknown): unknown {
  const json = JSON.stringify(value);
  if (json === undefined || json.length <= EXCERPT_CHARS) return value;
  return `${json.slice(0, EXCERPT_CHARS)}…`;
}

/** Evidence for a problem found in the definition: where it lies and what is written there. */
export function extensionEvidence(file: string, raw: unknown, problem: ExtensionProblem): Evidence {
  return {
    message: `${file}#${problem.path}: ${problem.message}`,
    actual: excerpt(valueAt(raw, problem.path)) ?? "absent",
  };
}
