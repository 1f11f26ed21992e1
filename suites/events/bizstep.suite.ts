// Spec 4.1 EQ_bizStep: "Only events whose bizStep matches one of the values", compared under the three-form
// equivalence of spec 2.1 (short, URN, Web URI), which also holds inside one pipe-joined value. A word outside the
// CBV is a value the harness makes up: a sender may refuse it (EVT-BIZSTEP-UNKNOWN), and must answer it right when
// it accepts it.
import fc from "fast-check";
import { answerProblem } from "../../src/assertions/query-answer.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import { bizStepForms, bizStepsEqual, canonicalBizStep, encodeQuery } from "../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/types.ts";
import { exchangeOf } from "./support/answers.ts";
import {
  eventsOrVerdict,
  failWith,
  held,
  INCONCLUSIVE_413,
  narrowingFor,
  sameSelection,
} from "./support/cases.ts";
import { type CaseResult, suiteEnv } from "./support/env.ts";
import { checkListFilter } from "./support/filters.ts";
import { Findings } from "./support/findings.ts";
import { skipWithoutEvents } from "./support/known.ts";
import { blamePaging } from "./support/paging.ts";
import { probeOf } from "./support/probes.ts";
import { checkAll, checkProperty } from "./support/property.ts";

type Form = "short" | "urn" | "webUri";
const FORMS: readonly Form[] = ["short", "urn", "webUri"];

requirementTest("EVT-BIZSTEP-MATCH", "EQ_bizStep selects the events of the business step", (checks, ctx) =>
  checkListFilter(checks, ctx, {
    parameter: "EQ_bizStep",
    values: suiteEnv(ctx).known.pools.bizSteps,
    noMatch: NO_MATCH.bizSteps,
    subject: "EQ_bizStep with bizSteps as the events write them",
    emptyReason: "no event the harness knows has a bizStep",
    // Events writing the step in another form are the business of EVT-BIZSTEP-FORMS.
    blames: (value) => (e) => e.bizStep === value,
  }),
);

/** Two queries that must select the same events because they differ only in how the steps are written. */
interface FormsCase {
  written: EventQuery;
  reference: EventQuery;
}

/** A narrowing around an event with the step, for a step the target refuses as too broad (spec 7). */
function narrowingForStep(events: readonly EpcisEvent[], step: string | undefined): EventQuery | undefined {
  if (step === undefined) return undefined;
  const holder = events.find((e) => typeof e.bizStep === "string" && bizStepsEqual(e.bizStep, step));
  return holder === undefined ? undefined : narrowingFor(holder);
}

function written(steps: readonly string[], forms: readonly Form[]): EventQuery {
  return { EQ_bizStep: steps.map((s, i) => bizStepForms(s)[forms[i] ?? "short"]) };
}

requirementTest(
  "EVT-BIZSTEP-FORMS",
  "The short, URN and Web URI forms of a bizStep select the same events",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    // Only steps in the CBV shape have three forms; a custom URI stands for itself (spec 2.1).
    const steps = [...new Set(env.known.pools.bizSteps.map(canonicalBizStep))]
      .filter((s) => /^[A-Za-z0-9_-]+$/.test(s))
      .sort();
    if (steps.length === 0) {
      checks.skip("no event the harness knows has a bizStep from the CBV, which alone have three forms");
      return;
    }
    const step = fc.constantFrom(...steps);
    const form = fc.constantFrom(...FORMS);
    const oneStep = fc
      .tuple(step, form, form)
      .map(([s, a, b]): FormsCase => ({ written: written([s], [a]), reference: written([s], [b]) }));
    // Mixed forms in one pipe-joined value against the same steps all written short: a pipe defect shows in both.
    const mixed = fc
      .tuple(
        fc.uniqueArray(step, { minLength: 2, maxLength: 3 }),
        fc.array(form, { minLength: 3, maxLength: 3 }),
      )
      .map(([s, f]): FormsCase => ({ written: written(s, f), reference: written(s, []) }));
    await checkProperty(checks, ctx, new Findings(), {
      subject: "EQ_bizStep written in one form against another",
      // A step outside the CBV in a form the events do not write is a value the harness made up.
      isProbe: (c) =>
        probeOf(env.known, c.written) !== undefined || probeOf(env.known, c.reference) !== undefined,
      // Two distinct steps are needed to mix forms; asking uniqueArray for two out of one never ends.
      arbitrary: steps.length >= 2 ? fc.oneof(oneStep, mixed) : oneStep,
      evaluate: async (c, findings): Promise<CaseResult> => {
        const relation = `EQ_bizStep=${c.written.EQ_bizStep?.join("|")} selecting what EQ_bizStep=${c.reference.EQ_bizStep?.join("|")} selects`;
        const result = await sameSelection(env, findings, relation, c.reference, c.written);
        const narrowing = narrowingForStep(env.known.events, c.reference.EQ_bizStep?.[0]);
        if (
          result.status !== "inconclusive" ||
          result.reason !== INCONCLUSIVE_413 ||
          narrowing === undefined
        ) {
          return result;
        }
        // A step too broad to answer (spec 7): the same relation among the events around one event.
        return sameSelection(
          env,
          findings,
          `${relation}, both narrowed by ${encodeQuery(narrowing)}`,
          { ...c.reference, ...narrowing },
          { ...c.written, ...narrowing },
        );
      },
    });
  },
);

/** A word in the shape of a CBV step that no CBV 2.0 step has, in its three forms. */
const UNKNOWN_WORD = "tracecheck_unknown_step";

requirementTest(
  "EVT-BIZSTEP-UNKNOWN",
  "A bizStep word outside the CBV is accepted and matches nothing",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) return;
    const forms = bizStepForms(UNKNOWN_WORD);
    const cases = [forms.short, forms.urn, forms.webUri].map((value) => async (findings: Findings) => {
      const query: EventQuery = { EQ_bizStep: [value] };
      const answer = await env.answers.get(query);
      if (answer.kind === "rejected" || (answer.kind === "broken" && answer.paging === undefined)) {
        const how = answer.kind === "rejected" ? `status ${answer.result.status}` : answer.message;
        return failWith(
          `EQ_bizStep=${value}, a step outside the CBV, was refused (${how}); spec 4.1 selects the events whose bizStep matches it, which is none`,
          exchangeEvidence(exchangeOf(answer)),
        );
      }
      const answered = eventsOrVerdict(env, findings, query, answer);
      if (!Array.isArray(answered)) return answered;
      // Accepted, it is a value like any other: a wrong answer fails EQ_bizStep's own requirement, unless its
      // pages lost the events (EVT-PAGING).
      const problem = answerProblem({ query, answered, known: env.known.candidates(query) });
      if (problem !== undefined) {
        const wrong = failWith(
          `${problem.reason} (a step outside the CBV, which the target accepted)`,
          exchangeEvidence(exchangeOf(answer), problem.evidence),
        );
        const result = await blamePaging(env, findings, wrong, [[query, answer]]);
        if (result.status === "fail") findings.note("EVT-BIZSTEP-MATCH", result);
      }
      return held(answer, `EQ_bizStep=${value}, a step outside the CBV, was accepted`);
    });
    await checkAll(
      checks,
      new Findings(),
      "EQ_bizStep with a word outside the CBV in its three forms",
      cases,
    );
  },
);
