export { keyMatches } from "./compare.ts";
export { AUTH_FAULTS } from "./faults.ts";
export { API_KEY_HEADER, registerAuth, SECURITY_EXCEPTION } from "./hook.ts";
export { loadKeys } from "./keys.ts";
