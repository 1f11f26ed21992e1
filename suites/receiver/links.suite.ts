// Whether the receiver went where the sender's resolver leads (spec 1, step 2; spec 4.2): events at the query
// interface an epcis link names, master data at the hrefs the resolver returned, nowhere of its own making. What
// the resolver returns is a link set's hrefs, or the location of its own redirect, whatever link type was asked.
import { requirementTest } from "../../src/engine/suite.ts";
import { sessionOf } from "./support/recording.ts";
import { described, epcisInterfaces, hrefUses, interfaceOf, requestEvidence } from "./support/requests.ts";
import { unresolvedBySpelling } from "./support/resolving.ts";

/**
 * RCV-EPCIS-LINK: every GET /events is at a query interface that an epcis link of an answered link set, or a
 * redirect of the resolver, names.
 */
requirementTest(
  "RCV-EPCIS-LINK",
  "Events are queried at the query interface an epcis link names",
  (checks, ctx) => {
    const { requests, key, task } = sessionOf(ctx);
    const queries = requests.filter((r) => r.kind === "events");
    if (queries.length === 0) return checks.skip("the receiver sent no GET /events");
    const interfaces = epcisInterfaces(requests);
    const unresolved = unresolvedBySpelling(requests, task.identifier);
    let proved = false;
    for (const r of queries) {
      const at = interfaceOf(r.url);
      const source = interfaces.get(at);
      if (source !== undefined) {
        if (proved) checks.pass();
        else {
          checks.pass(
            undefined,
            requestEvidence(source, key, { message: `the resolver named the query interface ${at}` }),
          );
          checks.pass(undefined, requestEvidence(r, key, { message: `the receiver queried ${at}` }));
        }
        proved = true;
        continue;
      }
      const evidence = requestEvidence(r, key, { expected: [...interfaces.keys()], actual: at });
      if (!requests.some((q) => q.kind === "resolver")) {
        // The receiver never asked the resolver: one defect, which RCV-CANONICAL-REBASE fails (the task's
        // identifier is to be asked at the sender's resolver); a query interface it could not have learned follows.
        checks.failUnlessBlocked(
          "RCV-CANONICAL-REBASE",
          `${described(r, key)} queries a query interface, but the receiver sent no request to the resolver, which returns where the sender's repository is.`,
          evidence,
        );
      } else if (interfaces.size === 0 && unresolved !== undefined) {
        // No link set named any, and the receiver asked the resolver for its identifier only in requests that
        // fail RCV-RESOLVER-PATH or RCV-LINKSET: that is the one defect, and the refusal left it nothing to learn.
        checks.failUnlessBlocked(
          unresolved.failed,
          `${described(r, key)} queries a query interface, but the receiver asked the resolver for ${task.identifier} only in requests that fail ${unresolved.failed.join(" or ")}, and no link set or redirect it was given named one.`,
          evidence,
        );
      } else {
        checks.fail(
          `${described(r, key)} queries ${at}, which no epcis link or redirect the receiver was given names.`,
          evidence,
        );
      }
    }
  },
);

/**
 * RCV-MASTERDATA-HREF: every master data fetch (a GET or HEAD beside the resolver and GET /events whose path names
 * a key of AI 01, 414 or 417, or that asks an href it was given) asks an href the resolver returned to the
 * receiver before it (a link set's, or a redirect's Location). Other requests (GET /, /openapi.json) fetch no
 * master data and are not judged.
 */
requirementTest(
  "RCV-MASTERDATA-HREF",
  "Master data is fetched only at the hrefs link sets return",
  (checks, ctx) => {
    const { requests, key } = sessionOf(ctx);
    const uses = hrefUses(requests);
    if (uses.length === 0)
      return checks.skip(
        "the receiver asked no master data: no path beside the resolver and GET /events named a key of AI 01, 414 or 417, nor asked an href it was given",
      );
    let proved = false;
    for (const { request: r, source, key: subject } of uses) {
      if (source === undefined) {
        checks.fail(
          `${described(r, key)} asks master data of ${subject} at a path no link set or redirect the receiver was given before returned: a master data path must be taken from the resolver, not built.`,
          requestEvidence(r, key),
        );
      } else if (proved) {
        checks.pass();
      } else {
        checks.pass(
          undefined,
          requestEvidence(source, key, { message: `the resolver returned ${r.normalized}` }),
        );
        checks.pass(
          undefined,
          requestEvidence(r, key, { message: "the receiver asked the href it was given" }),
        );
        proved = true;
      }
    }
  },
);
