export { EventStore, type QueryAnswer, type StoreOptions } from "./event-store.ts";
export { bizStepKey, idKey } from "./keys.ts";
export type { RecordTimeOptions } from "./record-time.ts";
export {
  CLASS_LISTS,
  type ClassList,
  EPC_FIELDS,
  type EpcField,
  type MatchRules,
  SPEC_RULES,
  type TimeComparison,
} from "./rules.ts";
