export { EVENTS_FAULTS, type EventsFaultId } from "./faults.ts";
export { matchRulesFor } from "./match-rules.ts";
export { EPCIS_CONTEXT } from "./query-document.ts";
export { PAGING_PARAMETERS } from "./read-query.ts";
export {
  capturing,
  QUERY_PARAMETER_EXCEPTION,
  QUERY_TOO_COMPLEX_EXCEPTION,
  registerEvents,
} from "./route.ts";
