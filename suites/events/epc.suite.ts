// Spec 4.1 MATCH_anyEPC: "Only events having an epcList, childEPCs, parentID, inputEPCList or outputEPCList
// where one of those EPCs (or the parentID) matches one of the URIs." One requirement per field, so that a field
// the target does not search fails exactly that requirement, each with EPCs as the events write them; that an EPC
// in the other spelling (URN ⇄ Digital Link) selects the same events is expected (EVT-EPC-FORMS, a SHOULD: the spec
// states form equivalence for bizStep alone).

import { requirementTest } from "../../src/engine/suite.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import { EPC_FIELDS, type EpcField, epcsIn, plainFirst } from "../../src/target/pools.ts";
import { suiteEnv } from "./support/env.ts";
import { checkListFilter, checkOtherForms } from "./support/filters.ts";

const FIELD_REQUIREMENTS: Record<EpcField, string> = {
  epcList: "EVT-EPC-EPCLIST",
  childEPCs: "EVT-EPC-CHILDEPCS",
  parentID: "EVT-EPC-PARENTID",
  inputEPCList: "EVT-EPC-INPUT",
  outputEPCList: "EVT-EPC-OUTPUT",
};

for (const field of EPC_FIELDS) {
  requirementTest(
    FIELD_REQUIREMENTS[field],
    `MATCH_anyEPC finds the events whose ${field} holds the EPC`,
    (checks, ctx) =>
      checkListFilter(checks, ctx, {
        parameter: "MATCH_anyEPC",
        values: plainFirst(suiteEnv(ctx).known.pools.epcs[field]),
        noMatch: NO_MATCH.epcs,
        subject: `MATCH_anyEPC with EPCs taken from ${field}`,
        emptyReason: `no event the harness knows has ${field}, so there is no EPC to draw from it`,
        // An event holding the EPC in another spelling or another field is the business of EVT-EPC-FORMS or of
        // that field's requirement.
        blames: (value) => (e) => epcsIn(e, field).includes(value),
      }),
  );
}

requirementTest(
  "EVT-EPC-FORMS",
  "An EPC selects the same events as a URN and as a Digital Link",
  (checks, ctx) => {
    const { pools } = suiteEnv(ctx).known;
    return checkOtherForms(checks, ctx, {
      parameter: "MATCH_anyEPC",
      values: EPC_FIELDS.flatMap((f) => pools.epcs[f]),
      what: "an EPC",
      plural: "EPCs",
    });
  },
);
