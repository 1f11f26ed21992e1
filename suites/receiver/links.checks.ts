// Whether the receiver went where the sender's resolver leads (spec 1, step 2; spec 4.2): events at the query
// interface an epcis link names, master data at the hrefs the resolver returned, nowhere of its own making. What
// the resolver returns is a link set's hrefs, or the location of its own redirect for gs1:epcis or gs1:masterData.
import {
  described,
  epcisInterfaces,
  learnedHrefsOf,
  type ReceivedRequest,
  requestEvidence,
} from "./requests.ts";
import type { ReceiverChecks } from "./verdicts.ts";

/**
 * RCV-EPCIS-LINK: every GET /events is at a query interface that an epcis link of an answered link set, or a
 * gs1:epcis redirect of the resolver, names.
 */
export function checkEpcisLinks(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  key: string,
): void {
  const c = checks.for("RCV-EPCIS-LINK");
  const queries = requests.filter((r) => r.kind === "events");
  if (queries.length === 0) {
    c.skip("the receiver sent no GET /events");
    return;
  }
  const interfaces = epcisInterfaces(requests);
  let proved = false;
  for (const r of queries) {
    const at = `${r.url.origin}${r.url.pathname}`;
    const source = interfaces.get(at);
    if (source !== undefined) {
      if (proved) c.pass();
      else {
        c.pass(
          undefined,
          requestEvidence(source, key, { message: `the resolver named the query interface ${at}` }),
        );
        c.pass(undefined, requestEvidence(r, key, { message: `the receiver queried ${at}` }));
      }
      proved = true;
      continue;
    }
    c.fail(
      interfaces.size === 0
        ? `${described(r, key)} queries a query interface, but no link set or redirect the receiver was given named one: the receiver did not learn it from the resolver.`
        : `${described(r, key)} queries ${at}, which no epcis link or redirect the receiver was given names.`,
      requestEvidence(r, key, { expected: [...interfaces.keys()], actual: at }),
    );
  }
}

/**
 * RCV-MASTERDATA-HREF: every request that is neither a resolver request nor a query of GET /events asks an href
 * the resolver returned to the receiver before it (a link set's, or a gs1:masterData redirect's). Returns the
 * requests that asked a path of the receiver's own making.
 */
export function checkHrefs(
  checks: ReceiverChecks,
  requests: readonly ReceivedRequest[],
  key: string,
): ReceivedRequest[] {
  const c = checks.for("RCV-MASTERDATA-HREF");
  const given = new Map<string, ReceivedRequest>();
  const built: ReceivedRequest[] = [];
  let others = 0;
  for (const r of requests) {
    if (r.kind === "other") {
      others += 1;
      const source = given.get(r.normalized);
      if (source === undefined) {
        built.push(r);
        c.fail(
          `${described(r, key)} is neither a resolver path nor GET /events, and no link set or redirect the receiver was given before returned this href: a master data path must be taken from the resolver, not built.`,
          requestEvidence(r, key),
        );
      } else if (others > 1) {
        c.pass();
      } else {
        c.pass(undefined, requestEvidence(source, key, { message: `the resolver returned ${r.normalized}` }));
        c.pass(undefined, requestEvidence(r, key, { message: "the receiver asked the href it was given" }));
      }
    }
    for (const href of learnedHrefsOf(r)) if (!given.has(href)) given.set(href, r);
  }
  if (others === 0) c.skip("the receiver asked nothing beside the resolver and GET /events");
  return built;
}
