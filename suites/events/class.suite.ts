// Spec 4.1 MATCH_anyEPCClass: "Only events having a quantityList, childQuantityList, inputQuantityList or
// outputQuantityList where one of those EPC classes matches one of the patterns or URIs." One requirement per
// list, each with classes as the events write them; a pattern must select what the classes it covers select
// (EVT-CLASS-PATTERN). That a class selects alike in URN and in Digital Link form is expected (EVT-CLASS-FORMS, a
// SHOULD: the spec states form equivalence for bizStep alone).
import fc from "fast-check";
import { unionOf } from "../../src/assertions/event-sets.ts";
import { answerProblem } from "../../src/assertions/query-answer.ts";
import { exchangeEvidence } from "../../src/engine/evidence.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import { NO_MATCH } from "../../src/generate/index.ts";
import { classMatches } from "../../src/model/index.ts";
import type { EpcisEvent, EventQuery } from "../../src/model/types.ts";
import { CLASS_FIELDS, type ClassField, classesIn, plainFirst } from "../../src/target/pools.ts";
import { type Answer, exchangeOf } from "./support/answers.ts";
import { eventsOrVerdict, failWith, held } from "./support/cases.ts";
import { type CaseResult, suiteEnv } from "./support/env.ts";
import { checkListFilter, checkOtherForms } from "./support/filters.ts";
import { Findings } from "./support/findings.ts";
import { classPatterns } from "./support/forms.ts";
import { partialNote, settled, skipWithoutEvents } from "./support/known.ts";
import { blamePaging } from "./support/paging.ts";
import { PREFIX_PATTERN } from "./support/probes.ts";
import { checkProperty } from "./support/property.ts";

const FIELD_REQUIREMENTS: Record<ClassField, string> = {
  quantityList: "EVT-CLASS-QUANTITY",
  childQuantityList: "EVT-CLASS-CHILD",
  inputQuantityList: "EVT-CLASS-INPUT",
  outputQuantityList: "EVT-CLASS-OUTPUT",
};

/** A pattern is judged against at most this many of the classes it covers, spread over them. */
const MAX_COVERED = 16;

function spread<T>(items: readonly T[], most: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / most));
  return items.filter((_, i) => i % step === 0);
}

for (const field of CLASS_FIELDS) {
  requirementTest(
    FIELD_REQUIREMENTS[field],
    `MATCH_anyEPCClass finds the events whose ${field} holds the class`,
    (checks, ctx) =>
      checkListFilter(checks, ctx, {
        parameter: "MATCH_anyEPCClass",
        values: plainFirst(suiteEnv(ctx).known.pools.classes[field]),
        noMatch: NO_MATCH.classes,
        subject: `MATCH_anyEPCClass with classes taken from ${field}`,
        emptyReason: `no event the harness knows has ${field}, so there is no class to draw from it`,
        blames: (value) => (e) => classesIn(e, field).includes(value),
      }),
  );
}

requirementTest(
  "EVT-CLASS-PATTERN",
  "A class pattern selects the events of the classes it covers",
  async (checks, ctx) => {
    const env = suiteEnv(ctx);
    if (skipWithoutEvents(checks, env.known)) {
      skipWithoutEvents(checks.for("EVT-CLASS-PATTERN-PREFIX"), env.known);
      return;
    }
    const { pools } = env.known;
    const classes = [...new Set(CLASS_FIELDS.flatMap((f) => pools.classes[f]))].sort();
    const cases = [...new Set(classes.flatMap((c) => classPatterns(c, pools.companyPrefixes)))]
      .sort()
      .map((pattern) => {
        // A pattern is an EPC URN (urn:epc:idpat), matched against classes in the same form; that it covers a class
        // the events write as a Digital Link is form equivalence, which the spec does not state (EVT-CLASS-FORMS).
        const covered = classes.filter((c) => c.startsWith("urn:") && classMatches(pattern, c));
        return { pattern, covers: covered.length, sample: spread(covered, MAX_COVERED) };
      })
      .filter((c) => c.covers > 0);
    if (cases.length === 0) {
      const why =
        "no class of the known events has a GTIN whose company prefix an EPC URN shows, so no sgtin pattern can be written";
      checks.skip(why);
      checks.for("EVT-CLASS-PATTERN-PREFIX").skip(why);
      return;
    }
    // A pattern over a company prefix is a probe: refused, it warns under EVT-CLASS-PATTERN-PREFIX; answered, it
    // is judged here like any pattern. The cases run at once: the pass shows the first answered in the order the
    // cases were asked, not the first whose answer came back, so that a report names the same proof run after run.
    const asked: string[] = [];
    const prefixAnswered = new Map<string, Answer>();
    await checkProperty(checks, ctx, new Findings(), {
      subject: "MATCH_anyEPCClass with urn:epc:idpat:sgtin patterns of the known classes",
      note: partialNote(env.known),
      arbitrary: fc.constantFrom(...cases),
      evaluate: async ({ pattern, covers, sample }, findings): Promise<CaseResult> => {
        // Before any answer is awaited, so in the order checkProperty evaluates the cases.
        asked.push(pattern);
        const query: EventQuery = { MATCH_anyEPCClass: [pattern] };
        const parts = sample.map((c): EventQuery => ({ MATCH_anyEPCClass: [c] }));
        const [whole, ...answers] = await Promise.all([query, ...parts].map((q) => env.answers.get(q)));
        const answered = eventsOrVerdict(env, findings, query, whole!);
        if (!Array.isArray(answered)) return answered;
        if (PREFIX_PATTERN.test(pattern)) prefixAnswered.set(pattern, whole!);
        const byClass: (readonly EpcisEvent[])[] = [];
        for (const answer of answers) {
          // A covered class without a usable answer is for its quantity list's requirement to report.
          if (answer?.kind !== "events") {
            return { status: "inconclusive", reason: "a covered class alone got no usable answer" };
          }
          byClass.push(settled(env.known, answer.events));
        }
        // What the covered classes select one by one the pattern must select too, and nothing outside the pattern:
        // a defect in one quantity list is that list's requirement, not the pattern's.
        const problem = answerProblem({ query, answered, known: unionOf(...byClass) });
        if (problem === undefined) {
          return held(
            whole!,
            () =>
              `MATCH_anyEPCClass=${pattern} answered the ${answered.length} event(s) that ${sample.length} of the ${covers} class(es) it covers select one by one`,
          );
        }
        const result = failWith(
          `${problem.reason}, compared with what ${sample.length} of the ${covers} class(es) it covers select one by one`,
          exchangeEvidence(exchangeOf(whole!), problem.evidence),
        );
        return blamePaging(env, findings, result, [
          [query, whole!],
          ...parts.map((q, i): [EventQuery, Answer] => [q, answers[i]!]),
        ]);
      },
    });
    const prefix = asked.map((p) => prefixAnswered.get(p)).find((a) => a !== undefined);
    if (prefix !== undefined) {
      checks
        .for("EVT-CLASS-PATTERN-PREFIX")
        .pass("a pattern over a whole company prefix was answered", exchangeEvidence(exchangeOf(prefix)));
    } else {
      // Refused, the probe has warned already, and the warning outranks this; otherwise none was answered.
      checks
        .for("EVT-CLASS-PATTERN-PREFIX")
        .skip("no pattern over a whole company prefix was answered among the cases drawn");
    }
  },
);

requirementTest(
  "EVT-CLASS-FORMS",
  "A class selects the same events as a URN and as a Digital Link",
  (checks, ctx) => {
    const { pools } = suiteEnv(ctx).known;
    return checkOtherForms(checks, ctx, {
      parameter: "MATCH_anyEPCClass",
      values: CLASS_FIELDS.flatMap((f) => pools.classes[f]),
      what: "a class",
      plural: "classes",
    });
  },
);
