// The check of one list parameter against the oracle (spec 4.1): single values drawn from the target's events,
// and now and then a value that matches nothing. Pipes, combinations and encodings have checks of their own.
import fc from "fast-check";
import type { RunContext } from "../../../src/harness/context.ts";
import type { Checks } from "../../../src/harness/suite.ts";
import { matchesQuery } from "../../../src/model/index.ts";
import type { EpcisEvent, ListParameter } from "../../../src/model/types.ts";
import { judgeQuery, narrowingFor, suiteEnv } from "./cases.ts";
import { Findings } from "./findings.ts";
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
  const findings = new Findings();
  await checkProperty(checks, ctx, findings, {
    subject: spec.subject,
    note: partialNote(env.known),
    arbitrary: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...spec.values) },
      { weight: 1, arbitrary: fc.constantFrom(...spec.noMatch) },
    ),
    evaluate: (value) => {
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
