// Spec 1, step 1: before any data is exchanged the parties exchange a Digital Link URI for the party and its
// location number (GLN); "This lets each party request master data for a party or location". Each must lead,
// through the sender's resolver, to its master data, even where spec 4.2 lets other parties and locations offer
// only an epcis link.
import type { MasterDataTypeName } from "../../src/definition/index.ts";
import { requirementTest } from "../../src/harness/suite.ts";
import { keyUri, ownership, sender } from "../resolver/support/sender.ts";
import { guessExcuse } from "./support/excuses.ts";
import { resolveMasterData } from "./support/resolve.ts";

const AI: Record<MasterDataTypeName, string> = {
  "gs1:Organization": "417",
  "gs1:Place": "414",
  "gs1:Product": "01",
};

requirementTest(
  "FLOW-SETUP",
  "The party and location exchanged at setup resolve to master data",
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
    const results = await Promise.all(
      subjects.map(async ([what, id, type, flag]) => {
        if (id === undefined) {
          checks.skip(`setup: no ${flag} given and the events name no ${what} to take instead; pass ${flag}`);
          return false;
        }
        const step = await resolveMasterData(ctx, id, type);
        // A party or location the harness took from the events is its guess, not a value the sender exchanged.
        const given = flag === "--party" ? values.partyGiven === true : values.glnGiven === true;
        const excuse =
          step.ok || given || ownership(values, id) !== undefined ? undefined : guessExcuse(id, flag, step);
        if (excuse !== undefined) {
          checks.skip(excuse);
          return false;
        }
        if (!step.ok) {
          checks.fail(
            `setup: the ${what} ${id} does not lead to its ${type} master data: ${step.reason}`,
            step.evidence,
          );
          return false;
        }
        return true;
      }),
    );
    if (results.every(Boolean)) {
      checks.pass(
        [`${values.party} and ${values.gln} resolve to their master data`, ...values.notes].join("; "),
      );
    }
  },
);
