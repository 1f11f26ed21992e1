// The check of one list parameter against the oracle (spec 4.1): single values drawn from the target's events,
// and now and then a value that matches nothing (a probe, support/probes.ts). Pipes, combinations and encodings
// have checks of their own. And the check that an identifier selects alike in its two spellings, URN and Digital
// Link: expected, not required, since the spec states form equivalence for bizStep alone (spec 2.1).
import fc from "fast-check";
import type { RunContext } from "../../../src/engine/context.ts";
import type { Checks } from "../../../src/engine/suite.ts";
import { encodeQuery, matchesQuery } from "../../../src/model/index.ts";
import type { EpcisEvent, EventQuery, ListParameter } from "../../../src/model/types.ts";
import { plainFirst } from "../../../src/target/pools.ts";
import { INCONCLUSIVE_413, judgeQuery, narrowingFor, sameSelection } from "./cases.ts";
import { suiteEnv } from "./env.ts";
import { Findings } from "./findings.ts";
import { otherForm } from "./forms.ts";
import { partialNote, skipWithoutEvents } from "./known.ts";
import { checkProperty } from "./property.ts";

export interface ListFilterSpec {
  parameter: ListParameter;
  /** Values present in the target's events. */
  values: readonly string[];
  /** Values that match nothing, drawn one time in five. */
  noMatch: readonly string[];
  subject: string;
  /** Why there is nothing to check when `values` is empty. */
  emptyReason: string;
  /** Which missing events a value is blamed for (see answerProblem); default all. */
  blames?: (value: string) => (expected: EpcisEvent) => boolean;
}

export async function checkListFilter(checks: Checks, ctx: RunContext, spec: ListFilterSpec): Promise<void> {
  const env = suiteEnv(ctx);
  if (skipWithoutEvents(checks, env.known)) return;
  if (spec.values.length === 0) {
    checks.skip(spec.emptyReason);
    return;
  }
  await checkProperty(checks, ctx, new Findings(), {
    subject: spec.subject,
    note: partialNote(env.known),
    arbitrary: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...spec.values) },
      { weight: 1, arbitrary: fc.constantFrom(...spec.noMatch) },
    ),
    isProbe: (value) => !spec.values.includes(value),
    evaluate: (value, findings) => {
      const query = { [spec.parameter]: [value] };
      const blames = spec.blames?.(value);
      const holder = env.known.candidates(query).find((e) => matchesQuery(e, query));
      const narrowing = holder === undefined ? undefined : narrowingFor(holder);
      return judgeQuery(env, findings, {
        query,
        ...(blames === undefined ? {} : { blames }),
        // A narrowing by the same parameter would replace the value under check.
        ...(narrowing === undefined || spec.parameter in narrowing ? {} : { narrowing }),
      });
    },
  });
}

export interface FormsSpec {
  parameter: "MATCH_anyEPC" | "MATCH_anyEPCClass" | "EQ_bizLocation";
  /** Identifiers as the target's events write them. */
  values: readonly string[];
  /** What is compared, e.g. "an EPC", and its plural, "EPCs". */
  what: string;
  plural: string;
}

/** A value as the events write it and in its other spelling select the same events (a SHOULD requirement). */
export async function checkOtherForms(checks: Checks, ctx: RunContext, spec: FormsSpec): Promise<void> {
  const env = suiteEnv(ctx);
  if (skipWithoutEvents(checks, env.known)) return;
  const prefixes = env.known.pools.companyPrefixes;
  const pairs = plainFirst([...new Set(spec.values)].sort())
    .map((value) => ({ value, other: otherForm(value, prefixes) }))
    .filter((p): p is { value: string; other: string } => p.other !== undefined);
  if (pairs.length === 0) {
    checks.skip(
      `none of the ${spec.plural} of the known events has another spelling the harness can write (a URN, or a Digital Link whose company prefix a URN shows)`,
    );
    return;
  }
  await checkProperty(checks, ctx, new Findings(), {
    subject: `${spec.parameter} with ${spec.what} and with its other spelling`,
    arbitrary: fc.constantFrom(...pairs),
    evaluate: async ({ value, other }, findings) => {
      const relation = `${spec.parameter}=${value} and ${spec.parameter}=${other} selecting the same events`;
      const [written, respelled]: EventQuery[] = [
        { [spec.parameter]: [value] },
        { [spec.parameter]: [other] },
      ];
      const result = await sameSelection(env, findings, relation, written!, respelled!);
      if (result.status !== "inconclusive" || result.reason !== INCONCLUSIVE_413) return result;
      // Too broad to answer (spec 7): the same relation among the events around one event that holds the value.
      const holder = env.known.candidates(written!).find((e) => matchesQuery(e, written!));
      const narrowing = holder === undefined ? undefined : narrowingFor(holder);
      if (narrowing === undefined || spec.parameter in narrowing) return result;
      return sameSelection(
        env,
        findings,
        `${relation}, both narrowed by ${encodeQuery(narrowing)}`,
        { ...written, ...narrowing },
        { ...respelled, ...narrowing },
      );
    },
  });
}
