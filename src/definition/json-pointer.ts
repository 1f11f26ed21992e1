import type { JsonObject } from "./types.ts";

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function escapePointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointerOf(tokens: readonly string[]): string {
  return tokens.map((t) => "/" + escapePointer(t)).join("");
}

/** The value a local reference ("#/a/b") points to in `root`, or undefined when it points nowhere. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const tokens = ref
    .slice(1)
    .split("/")
    .slice(1)
    .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

/**
 * Follows local $refs from `node` until a node without one, with the pointer of where it ended. OpenAPI 3.1
 * allows siblings next to $ref (e.g. x-kde-name), so the caller keeps the original node for those.
 */
export function deref(root: unknown, node: unknown, at: string): { node: unknown; at: string } {
  const seen = new Set<unknown>();
  let current = node;
  let where = at;
  while (isObject(current) && typeof current.$ref === "string" && current.$ref.startsWith("#")) {
    if (seen.has(current)) break;
    seen.add(current);
    where = current.$ref.slice(1);
    current = resolveLocalRef(root, current.$ref);
  }
  return { node: current, at: where };
}
