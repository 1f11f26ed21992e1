import type { Fault } from "../types.ts";

/** Defects of the X-API-Key check, each violating MUST requirements of spec 5. */
export const AUTH_FAULTS: Fault[] = [
  {
    id: "auth-missing-accepted",
    description: "A request without an X-API-Key header is answered as if it carried a valid key.",
    violates: ["AUTH-MISSING"],
  },
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
