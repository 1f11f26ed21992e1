// Spec 4.1 EQ_transformationID and EQ_bizLocation: "Only events whose transformationID (bizLocation) matches one
// of the values." A location selects in URN and in Digital Link form alike (EVT-BIZLOCATION).

import { NO_MATCH } from "../../src/generate/index.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { suiteEnv } from "./support/cases.ts";
import { checkListFilter } from "./support/filters.ts";
import { otherForm } from "./support/forms.ts";
import { plainFirst } from "./support/pools.ts";

requirementTest(
  "EVT-TRANSFORMATION-ID",
  "EQ_transformationID selects the events of the transformation",
  (checks, ctx) =>
    checkListFilter(checks, ctx, {
      parameter: "EQ_transformationID",
      values: plainFirst(suiteEnv(ctx).known.pools.transformationIds),
      noMatch: NO_MATCH.transformationIds,
      subject: "EQ_transformationID with transformation ids of the known events",
      emptyReason: "no event the harness knows has a transformationID",
    }),
);

requirementTest(
  "EVT-BIZLOCATION",
  "EQ_bizLocation selects the events at the location, in either spelling",
  (checks, ctx) => {
    const { pools } = suiteEnv(ctx).known;
    const respelled = pools.locations.flatMap((l) => otherForm(l, pools.companyPrefixes) ?? []);
    return checkListFilter(checks, ctx, {
      parameter: "EQ_bizLocation",
      values: plainFirst([...new Set([...pools.locations, ...respelled])].sort()),
      noMatch: NO_MATCH.locations,
      subject: "EQ_bizLocation with locations of the known events, as written and respelled",
      emptyReason: "no event the harness knows has a bizLocation",
    });
  },
);
