// What the resolver class reads from the run's interface definition.
import type { Definition } from "../../../src/definition/index.ts";
import type { PathForm } from "../../../src/model/index.ts";

/** The link types the definition's x-link-types lists for a path form (spec 4.2's table), or undefined. */
export function linkTypesFor(definition: Definition, form: PathForm): string[] | undefined {
  return definition.resolverPaths.find((p) => p.ais.join("/") === form)?.linkTypes;
}

/**
 * Path forms whose row of spec 4.2's table offers its link types as alternatives: "Links about a trading party
 * or organization, reachable with gs1:masterData or gs1:epcis", and the same words for a location.
 */
export const ANY_OF_LINK_TYPES: ReadonlySet<PathForm> = new Set<PathForm>(["414", "417"]);
