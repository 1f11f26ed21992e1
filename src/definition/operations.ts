import { deref, isObject, pointerOf } from "./json-pointer.ts";
import type { JsonObject } from "./types.ts";

/** A parameter of an operation, with $refs followed, and the pointer where its declaration lives. */
export interface DeclaredParameter {
  parameter: JsonObject;
  at: string;
}

export function pathsOf(raw: JsonObject): JsonObject {
  return isObject(raw.paths) ? raw.paths : {};
}

export function getOperation(raw: JsonObject, template: string): JsonObject | undefined {
  const item = pathsOf(raw)[template];
  const resolved = deref(raw, item, pointerOf(["paths", template])).node;
  if (!isObject(resolved)) return undefined;
  return isObject(resolved.get) ? resolved.get : undefined;
}

/** Path-level and operation-level parameters of GET `template`; an operation-level one wins (OpenAPI 3.1). */
export function parametersOf(raw: JsonObject, template: string): DeclaredParameter[] {
  const item = deref(raw, pathsOf(raw)[template], pointerOf(["paths", template]));
  if (!isObject(item.node)) return [];
  const collect = (list: unknown, base: string): DeclaredParameter[] =>
    Array.isArray(list)
      ? list.flatMap((p, i) => {
          const r = deref(raw, p, `${base}/${i}`);
          return isObject(r.node) ? [{ parameter: r.node, at: r.at }] : [];
        })
      : [];
  const fromItem = collect(item.node.parameters, `${item.at}/parameters`);
  const operation = isObject(item.node.get) ? item.node.get : undefined;
  const fromOperation = collect(operation?.parameters, `${item.at}/get/parameters`);
  const key = (d: DeclaredParameter) => `${String(d.parameter.in)}:${String(d.parameter.name)}`;
  const overridden = new Set(fromOperation.map(key));
  return [...fromItem.filter((d) => !overridden.has(key(d))), ...fromOperation];
}

/** Success codes as an OpenAPI document may write them: 200 first, then any other 2xx, then the 2XX range. */
function successCodes(responses: JsonObject): string[] {
  const exact = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort((a, b) => (a === "200" ? -1 : b === "200" ? 1 : a.localeCompare(b)));
  return [...exact, ...Object.keys(responses).filter((code) => code.toUpperCase() === "2XX")];
}

/**
 * The schema of the success response of GET `template`, as written (a $ref is not followed). The spec shows
 * neither the success status nor the media type (4.1, 4.2), so any 2xx code serves, and any JSON media type
 * when `mediaType`, the one preferred, is not declared.
 */
export function successSchema(raw: JsonObject, template: string, mediaType: string): unknown {
  const operation = getOperation(raw, template);
  if (!operation || !isObject(operation.responses)) return undefined;
  for (const code of successCodes(operation.responses)) {
    const response = deref(raw, operation.responses[code], "").node;
    if (!isObject(response) || !isObject(response.content)) continue;
    const content = response.content;
    const name = mediaType in content ? mediaType : Object.keys(content).find((m) => /json/i.test(m));
    const media = name === undefined ? undefined : content[name];
    if (isObject(media) && media.schema !== undefined) return media.schema;
  }
  return undefined;
}

/** Resolver path templates of spec 4.2: one or two `/{AI}/{value}` pairs with numeric AIs. */
export const RESOLVER_TEMPLATE = /^(?:\/[0-9]+\/\{[^/{}]+\}){1,2}$/;

export function resolverTemplates(raw: JsonObject): string[] {
  return Object.keys(pathsOf(raw)).filter((t) => RESOLVER_TEMPLATE.test(t));
}
