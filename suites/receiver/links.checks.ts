// Whether the receiver went where the sender's links lead (spec 1, step 2; spec 4.2): events at the query
// interface an epcis link names, master data at the hrefs link sets returned, nowhere of its own making.
import {
  described,
  epcisInterfaces,
  linksetHrefsOf,
  type ReceivedRequest,
  requestEvidence,
} from "./requests.ts";
import type { ReceiverChecks } from "./verdicts.ts";

/** RCV-EPCIS-LINK: every GET /events is at a query interface an epcis link of an answered link set names. */
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
    if (interfaces.has(at)) {
      c.pass(undefined, proved ? undefined : requestEvidence(r, key));
      proved = true;
      continue;
    }
    c.fail(
      interfaces.size === 0
        ? `${described(r, key)} queries a query interface, but no link set the receiver was given named one: the receiver did not learn it from the resolver.`
        : `${described(r, key)} queries ${at}, which no epcis link the receiver was given names.`,
      requestEvidence(r, key, { expected: [...interfaces], actual: at }),
    );
  }
}

/**
 * RCV-MASTERDATA-HREF: every request that is neither a resolver request nor a query of GET /events asks an href a
 * link set answered to the receiver before it gave.
 */
export function checkHrefs(checks: ReceiverChecks, requests: readonly ReceivedRequest[], key: string): void {
  const c = checks.for("RCV-MASTERDATA-HREF");
  const given = new Set<string>();
  let others = 0;
  for (const r of requests) {
    if (r.kind === "other") {
      others += 1;
      if (given.has(r.normalized)) {
        c.pass(undefined, others === 1 ? requestEvidence(r, key) : undefined);
      } else {
        c.fail(
          `${described(r, key)} is neither a resolver path nor GET /events, and no link set the receiver was given before returned this href: a master data path must be taken from the link set, not built.`,
          requestEvidence(r, key),
        );
      }
    }
    for (const href of linksetHrefsOf(r)) given.add(href);
  }
  if (others === 0) c.skip("the receiver asked nothing beside the resolver and GET /events");
}
