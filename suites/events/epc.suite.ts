// Spec 4.1 MATCH_anyEPC: "Only events having an epcList, childEPCs, parentID, inputEPCList or outputEPCList
// where one of those EPCs (or the parentID) matches one of the URIs." One requirement per field, so that a field
// the target does not search fails exactly that requirement; EPCs written in the other spelling (URN ⇄ Digital
// Link) must select the same events.
import fc from "fast-check";
import { NO_MATCH } from "../../src/generate/index.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { sameSelection, suiteEnv } from "./support/cases.ts";
import { checkListFilter } from "./support/filters.ts";
import { Findings } from "./support/findings.ts";
import { otherForm } from "./support/forms.ts";
import { skipWithoutEvents } from "./support/known.ts";
import { EPC_FIELDS, type EpcField, epcsIn, plainFirst } from "./support/pools.ts";
import { checkProperty } from "./support/property.ts";

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
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const { pools } = env.known;
    const pairs = plainFirst(EPC_FIELDS.flatMap((f) => pools.epcs[f]))
      .map((value) => ({ value, other: otherForm(value, pools.companyPrefixes) }))
      .filter((p): p is { value: string; other: string } => p.other !== undefined);
    if (pairs.length === 0) {
      checks.skip(
        "no EPC of the known events has another spelling the harness can write (a URN, or a Digital Link whose company prefix a URN shows)",
      );
      return;
    }
    const findings = new Findings();
    await checkProperty(checks, ctx, findings, {
      subject: "MATCH_anyEPC with an EPC and with its other spelling",
      arbitrary: fc.constantFrom(...pairs),
      evaluate: ({ value, other }) =>
        sameSelection(
          env,
          findings,
          `MATCH_anyEPC=${value} and MATCH_anyEPC=${other} selecting the same events`,
          { MATCH_anyEPC: [value] },
          { MATCH_anyEPC: [other] },
        ),
    });
  },
);
