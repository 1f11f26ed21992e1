import { ES_MODULE_IMPORTER } from "../../scripts/compiled.js";

type Importer = (specifier: string) => Promise<unknown>;

/**
 * Imports a package at run time, one that is an ES module only among them. The bundle's command is CommonJS run with
 * a code cache (scripts/code-cache.js), which has no import() of its own: the process that runs it gives one under
 * ES_MODULE_IMPORTER. Elsewhere, this module's own import() does.
 */
export function importModule<T>(specifier: string): Promise<T> {
  const given = (globalThis as Record<symbol, Importer | undefined>)[Symbol.for(ES_MODULE_IMPORTER)];
  return (given ?? ((s: string) => import(s)))(specifier) as Promise<T>;
}
