import {
  CLASS_LISTS,
  type ClassList,
  EPC_FIELDS,
  type EpcField,
  type QueryParameter,
} from "../../model/index.ts";
import { type MatchRules, SPEC_RULES } from "../store/index.ts";
import { type EventsFaultId, faultOn } from "./faults.ts";

const EPC_FIELD_FAULTS: Record<EpcField, EventsFaultId> = {
  epcList: "epc-ignores-epclist",
  childEPCs: "epc-ignores-childepcs",
  parentID: "epc-ignores-parentid",
  inputEPCList: "epc-ignores-input",
  outputEPCList: "epc-ignores-output",
};

const CLASS_LIST_FAULTS: Record<ClassList, EventsFaultId> = {
  quantityList: "class-ignores-quantitylist",
  childQuantityList: "class-ignores-child",
  inputQuantityList: "class-ignores-input",
  outputQuantityList: "class-ignores-output",
};

const IGNORED_PARAMETER_FAULTS: [EventsFaultId, QueryParameter][] = [
  ["bizstep-ignored", "EQ_bizStep"],
  ["transformation-id-ignored", "EQ_transformationID"],
  ["bizlocation-ignored", "EQ_bizLocation"],
];

/** The match rules the store applies: the spec's, changed only where a switched-on fault says. */
export function matchRulesFor(faults: ReadonlySet<string>): MatchRules {
  if (faults.size === 0) return SPEC_RULES;
  const on = (id: EventsFaultId): boolean => faultOn(faults, id);
  return {
    ltRecordInclusive: on("lt-record-inclusive"),
    geRecordExclusive: on("ge-record-exclusive"),
    ltEventInclusive: on("lt-event-inclusive"),
    geEventExclusive: on("ge-event-exclusive"),
    timeComparison: on("time-ignores-offset")
      ? "wall-clock"
      : on("time-millisecond-truncation")
        ? "millisecond-truncated"
        : "exact",
    epcFields: EPC_FIELDS.filter((f) => !on(EPC_FIELD_FAULTS[f])),
    epcAsWritten: on("epc-urn-only"),
    classLists: CLASS_LISTS.filter((l) => !on(CLASS_LIST_FAULTS[l])),
    classPatterns: !on("class-no-patterns"),
    bizStepAsWritten: on("bizstep-exact-string"),
    ignored: IGNORED_PARAMETER_FAULTS.filter(([id]) => on(id)).map(([, p]) => p),
    valuesCombine: on("pipe-as-and") || on("repeat-as-own-pipe") ? "and" : "or",
    parametersCombine: on("and-as-or") ? "or" : "and",
  };
}
