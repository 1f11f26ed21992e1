// How the receiver asks the resolver (spec 4.2): numeric application identifiers in one of the six path forms, a
// link set asked with linkType=linkset, and identifiers issued under https://id.gs1.org asked at the sender's
// resolver base.

import { requirementTest } from "../../src/engine/suite.ts";
import { CANONICAL_DL_BASE, canonicalId } from "../../src/model/index.ts";
import { identifierOf, pathProblem } from "./support/paths.ts";
import { sessionOf } from "./support/recording.ts";
import {
  described,
  linkTypesOf,
  type ReceivedRequest,
  requestEvidence,
  resolverPathOf,
} from "./support/requests.ts";
import { linksetAsk } from "./support/resolving.ts";

const NO_RESOLVER_REQUEST = "the receiver sent no request to the resolver";

/** RCV-RESOLVER-PATH, for every resolver request. */
requirementTest(
  "RCV-RESOLVER-PATH",
  "Resolver paths use numeric AIs in one of the six forms",
  (checks, ctx) => {
    const { requests, key } = sessionOf(ctx);
    const asked = requests.filter((r) => r.kind === "resolver");
    if (asked.length === 0) return checks.skip(NO_RESOLVER_REQUEST);
    let proved = false;
    for (const r of asked) {
      const problem = pathProblem(resolverPathOf(r));
      if (problem === undefined) {
        checks.pass(undefined, proved ? undefined : requestEvidence(r, key));
        proved = true;
      } else {
        // The Digital Link reader's messages end in a full stop of their own; this check's do not.
        const sentence = problem.endsWith(".") ? problem : `${problem}.`;
        checks.fail(`${described(r, key)}: ${sentence}`, requestEvidence(r, key));
      }
    }
  },
);

/** RCV-LINKSET, for every resolver request that asks for a link set. */
requirementTest("RCV-LINKSET", "A link set is asked for with linkType=linkset", (checks, ctx) => {
  const { requests, key } = sessionOf(ctx);
  const asked = requests.filter((r) => r.kind === "resolver");
  if (asked.length === 0) return checks.skip(NO_RESOLVER_REQUEST);
  let proved = false;
  let linksetAsked = 0;
  for (const r of asked) {
    const what = described(r, key);
    const values = linkTypesOf(r);
    const asks = linksetAsk(r);
    if (asks !== undefined) linksetAsked += 1;
    if (asks === "linkset") {
      checks.pass(undefined, proved ? undefined : requestEvidence(r, key));
      proved = true;
    } else if (asks === "media-type") {
      checks.warn(
        `${what} asks for the link set by its media type only; spec 4.2 asks for it with linkType=linkset.`,
        requestEvidence(r, key),
      );
    } else if (asks === "other") {
      checks.fail(
        `${what} asks for the link set with linkType=${values.join(", linkType=")}; spec 4.2 asks for it with linkType=linkset, once.`,
        requestEvidence(r, key, { expected: "linkType=linkset", actual: values.map((v) => `linkType=${v}`) }),
      );
    }
  }
  if (linksetAsked === 0) {
    checks.skip(
      "the receiver asked the resolver for no link set (it asked for link types, whose redirects it may follow)",
    );
  }
});

/** RCV-CANONICAL-REBASE: the task's identifier asked at the sender's resolver, and no Digital Link path elsewhere. */
requirementTest(
  "RCV-CANONICAL-REBASE",
  "An identifier under https://id.gs1.org is asked at the sender's resolver",
  (checks, ctx) => {
    const { requests, key, task } = sessionOf(ctx);
    const never = `the receiver never asked the sender's resolver for ${task.identifier}, the identifier it was given under ${CANONICAL_DL_BASE}.`;
    const expected = `GET {resolver}${task.identifier.slice(CANONICAL_DL_BASE.length)}?linkType=linkset`;
    const asked = requests.filter((r) => r.kind === "resolver");
    if (asked.length === 0) return checks.fail(never, { expected, actual: "no request" });
    const wanted = canonicalId(task.identifier);
    let taskAsked: ReceivedRequest | undefined;
    for (const r of asked) {
      if (r.exchange.listener === "events") {
        checks.fail(
          `${described(r, key)} asks a Digital Link path at the query interface's server, not at the sender's resolver.`,
          requestEvidence(r, key),
        );
      } else if (taskAsked === undefined && identifierOf(resolverPathOf(r)) === wanted) {
        taskAsked = r;
      }
    }
    if (taskAsked === undefined) checks.fail(never, { expected });
    else checks.pass(`asked ${described(taskAsked, key)}`, requestEvidence(taskAsked, key));
  },
);
