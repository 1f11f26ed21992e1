import type { QueryParameter } from "../../model/index.ts";

import { CLASS_LISTS, type ClassList, EPC_FIELDS, type EpcField } from "../../model/types.ts";

export { CLASS_LISTS, type ClassList, EPC_FIELDS, type EpcField };

/**
 * How time bounds compare: on exact instants (spec 4.1), at millisecond precision with the sub-millisecond digits
 * cut off, or on the written wall-clock time with its offset disregarded.
 */
export type TimeComparison = "exact" | "millisecond-truncated" | "wall-clock";

/**
 * The semantics the store applies to a query. The spec's semantics are SPEC_RULES; a named fault of the reference
 * sender changes exactly one member, so that the defect it models stays confined to the rule it names.
 */
export interface MatchRules {
  ltRecordInclusive: boolean;
  geRecordExclusive: boolean;
  ltEventInclusive: boolean;
  geEventExclusive: boolean;
  timeComparison: TimeComparison;
  epcFields: readonly EpcField[];
  /** Compare EPCs as written instead of in canonical form, so a URN never equals its Digital Link form. */
  epcAsWritten: boolean;
  classLists: readonly ClassList[];
  classPatterns: boolean;
  /** Compare bizSteps as strings instead of under the three-form equivalence of spec 2.1. */
  bizStepAsWritten: boolean;
  /** Parameters accepted on the wire but not applied. */
  ignored: readonly QueryParameter[];
  /** How the values of one list parameter combine; the spec says OR (spec 4.1 rule 1). */
  valuesCombine: "or" | "and";
  /** How parameters combine; the spec says AND. */
  parametersCombine: "and" | "or";
}

export const SPEC_RULES: MatchRules = Object.freeze({
  ltRecordInclusive: false,
  geRecordExclusive: false,
  ltEventInclusive: false,
  geEventExclusive: false,
  timeComparison: "exact",
  epcFields: EPC_FIELDS,
  epcAsWritten: false,
  classLists: CLASS_LISTS,
  classPatterns: true,
  bizStepAsWritten: false,
  ignored: [],
  valuesCombine: "or",
  parametersCombine: "and",
});
