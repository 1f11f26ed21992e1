export { type CaptureLimits, DEFAULT_CAPTURE_LIMITS } from "./capture/index.ts";
export { EVENTS_FAULTS, QUERY_PARAMETER_EXCEPTION, QUERY_TOO_COMPLEX_EXCEPTION } from "./events/index.ts";
export { FAULTS, faultCatalogue } from "./faults.ts";
export { sendProblem } from "./problem.ts";
export { DEFAULT_CONFIG, type RunningReference, startReference } from "./server.ts";
export {
  EventStore,
  type MatchRules,
  type QueryAnswer,
  SPEC_RULES,
  type StoreOptions,
} from "./store/index.ts";
export type {
  Fault,
  ReferenceConfig,
  ReferenceContext,
  ReferenceOptions,
  RouteRegistrar,
} from "./types.ts";
