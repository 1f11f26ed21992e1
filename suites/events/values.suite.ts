// Spec 4.1 EQ_transformationID and EQ_bizLocation: "Only events whose transformationID (bizLocation) matches one
// of the values", each checked with values as the events write them. That a location selects alike in URN and in
// Digital Link form is expected (EVT-BIZLOCATION-FORMS, a SHOULD: the spec states form equivalence for bizStep
// alone).

import { requirementTest } from "../../src/engine/suite.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import { locationOf, plainFirst } from "../../src/target/pools.ts";
import { suiteEnv } from "./support/env.ts";
import { checkListFilter, checkOtherForms } from "./support/filters.ts";

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

requirementTest("EVT-BIZLOCATION", "EQ_bizLocation selects the events at the location", (checks, ctx) =>
  checkListFilter(checks, ctx, {
    parameter: "EQ_bizLocation",
    values: plainFirst(suiteEnv(ctx).known.pools.locations),
    noMatch: NO_MATCH.locations,
    subject: "EQ_bizLocation with locations as the known events write them",
    emptyReason: "no event the harness knows has a bizLocation",
    // An event holding the location in the other spelling is the business of EVT-BIZLOCATION-FORMS.
    blames: (value) => (e) => locationOf(e) === value,
  }),
);

requirementTest(
  "EVT-BIZLOCATION-FORMS",
  "A location selects the same events as a URN and as a Digital Link",
  (checks, ctx) =>
    checkOtherForms(checks, ctx, {
      parameter: "EQ_bizLocation",
      values: suiteEnv(ctx).known.pools.locations,
      what: "a location",
      plural: "locations",
    }),
);
