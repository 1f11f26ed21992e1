// Why a step of the receiver's walk that led nowhere is no failure of the sender's. The spec leaves the
// resolver's status codes open ("Not shown: status codes and error bodies of the resolver"): an identifier not
// known to be the sender's own may be declined with any answer but a 2xx, and spec 4.2 lets a location or party
// offer gs1:epcis without gs1:masterData. Undefined when the step is a failure.
import { declined } from "../../../src/assertions/path-verdicts.ts";
import type { Subject } from "../../../src/target/subjects.ts";
import type { Failure } from "./resolve.ts";

/** FLOW-MASTERDATA: `own` is why the subject is the sender's own, undefined when that is not known. */
export function masterDataExcuse(s: Subject, step: Failure, own: string | undefined): string | undefined {
  if (step.stage === "linkset" && declined(step.status)) {
    return own === undefined ? `${s.id} answered ${step.status}` : undefined;
  }
  if (step.stage === "no-link" && s.type !== "gs1:Product") return `${s.id} offers no masterData link`;
  return undefined;
}

/**
 * FLOW-SETUP: a party or location the harness took from the events is its guess, not a value the sender
 * exchanged; the resolver declining it, or its link set offering neither gs1:masterData nor gs1:epcis, says only
 * that the guess may be wrong. `flag` is the option that would have given it (--party, --gln).
 */
export function guessExcuse(id: string, flag: string, step: Failure): string | undefined {
  const why =
    step.stage === "linkset" && declined(step.status)
      ? `answered ${step.status}`
      : step.stage === "no-link"
        ? "offers neither gs1:masterData nor gs1:epcis"
        : undefined;
  if (why === undefined) return undefined;
  return `setup: no ${flag} given, and ${id}, taken from the events, ${why}: it may not be the sender's; pass the value it exchanges with ${flag}`;
}
