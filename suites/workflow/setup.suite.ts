// Spec 1, step 1: before any data is exchanged the parties exchange a Digital Link URI for the party and its
// location number (GLN); "This lets each party request master data for a party or location". Spec 4.2 makes a
// party and a location "reachable with gs1:masterData or gs1:epcis": each must resolve, through the sender's
// resolver, to a link set that offers one of the two, and a masterData link it offers must lead to master data of
// the right type. Reaching neither, or wrong master data, is the failure, unless a requirement that judges the
// link set, the link or the document failed on it (one defect, one failure).

import { failUnlessExplained } from "../../src/assertions/blockers.ts";
import type { MasterDataTypeName } from "../../src/definition/index.ts";
import { requirementTest } from "../../src/engine/suite.ts";
import type { Evidence } from "../../src/engine/types.ts";
import { keyUri, ownership, sender } from "../../src/target/sender.ts";
import { guessExcuse } from "./support/excuses.ts";
import { reachPartyOrLocation } from "./support/resolve.ts";

/** A party or location reached, with the pass it earns. */
interface Reached {
  note: string;
  evidence: Evidence;
}

const AI: Record<MasterDataTypeName, string> = {
  "gs1:Organization": "417",
  "gs1:Place": "414",
  "gs1:Product": "01",
};

requirementTest(
  "FLOW-SETUP",
  "The party and location exchanged at setup are reachable at the resolver",
  async (checks, ctx) => {
    const values = sender(ctx);
    const subjects: [what: string, id: string | undefined, type: MasterDataTypeName, flag: string][] = [
      ["party", values.party, "gs1:Organization", "--party"],
      ["location", values.gln, "gs1:Place", "--gln"],
    ];
    const malformed = subjects.filter(
      ([, id, type]) => id !== undefined && keyUri(id, AI[type]) === undefined,
    );
    if (malformed.length > 0) {
      for (const [what, id, type, flag] of malformed) {
        const given = (flag === "--party" ? ctx.party : ctx.gln) ?? id;
        checks.error(
          `setup: ${flag} ${given} is not a ${what} identifier (a Digital Link URI with AI ${AI[type]}, or for --gln 13 digits with a valid check digit); correct it and run again`,
          { message: "the value exchanged at setup is not a GS1 identifier of its kind", actual: given },
        );
      }
      return;
    }
    const notes = values.notes.length > 0 ? `; ${values.notes.join("; ")}` : "";
    // Both asked at once, their verdicts recorded in the subjects' order, so that a report reads the same run after
    // run: each subject answers what to record, or the pass it earned.
    const reached = await Promise.all(
      subjects.map(async ([what, id, type, flag]): Promise<Reached | (() => void)> => {
        if (id === undefined) {
          return () =>
            checks.skip(
              `setup: no ${flag} given and the events name no ${what} to take instead; pass ${flag}`,
            );
        }
        const step = await reachPartyOrLocation(ctx, id, type);
        // A party or location the harness took from the events is its guess, not a value the sender exchanged.
        const given = flag === "--party" ? values.partyGiven === true : values.glnGiven === true;
        const excuse =
          step.ok || given || ownership(values, id) !== undefined ? undefined : guessExcuse(id, flag, step);
        if (excuse !== undefined) return () => checks.skip(excuse);
        if (!step.ok) {
          const reach =
            step.stage === "link"
              ? "leads to wrong master data"
              : "is not reachable at the sender's resolver";
          // A link set, link or document the resolver and masterdata classes judge is their failure to report.
          return () =>
            failUnlessExplained(
              checks,
              ctx,
              step.explainedBy ?? [],
              `setup: the ${what} ${id} ${reach}: ${step.reason}`,
              step.evidence,
            );
        }
        const { via, href, evidence } = step.value;
        const how =
          via === "masterData"
            ? `resolves to its ${type} master data (${href})`
            : `is reachable with gs1:epcis (${href}) without gs1:masterData, as spec 4.2 allows`;
        return { note: `setup: the ${what} ${id} ${how}${notes}`, evidence };
      }),
    );
    for (const r of reached) if (typeof r === "function") r();
    // Both were reached, or the verdict is what the other recorded: a skip leaves the requirement unjudged.
    const both = reached.filter((r): r is Reached => typeof r !== "function");
    if (both.length === reached.length) for (const r of both) checks.pass(r.note, r.evidence);
  },
);
