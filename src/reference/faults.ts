import { AUTH_FAULTS } from "./auth/index.ts";
import { EVENTS_FAULTS } from "./events/index.ts";
import { MASTERDATA_FAULTS } from "./masterdata/index.ts";
import { RESOLVER_FAULTS } from "./resolver/index.ts";
import type { Fault } from "./types.ts";

/** Every named fault of the reference sender, each one defect tied to the requirements it violates. */
export const FAULTS: readonly Fault[] = Object.freeze([
  ...EVENTS_FAULTS,
  ...RESOLVER_FAULTS,
  ...MASTERDATA_FAULTS,
  ...AUTH_FAULTS,
]);

/** The catalogue as `tracecheck faults --json` prints it: copies, in catalogue order. */
export function faultCatalogue(): Fault[] {
  return FAULTS.map((f) => ({ id: f.id, description: f.description, violates: [...f.violates] }));
}
