import type { Fault } from "../types.ts";

/**
 * Defects of the X-API-Key check, each violating MUST requirements of spec 5. Answering a request without a key
 * is no defect (spec 5.6): the named configurations open-events and open-refuses-wrong do it.
 */
export const AUTH_FAULTS: Fault[] = [
  {
    id: "auth-wrong-accepted",
    description: "Any X-API-Key value is accepted, valid or not.",
    violates: ["AUTH-WRONG"],
  },
  {
    id: "auth-case-sensitive-header",
    description: "Only a header spelled exactly X-API-Key is read; x-api-key or X-Api-Key count as missing.",
    violates: ["AUTH-HEADER"],
  },
];
