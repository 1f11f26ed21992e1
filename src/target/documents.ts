// The master data documents a receiver reaches through the masterData links of /01, /414 and /417 link sets
// (spec 4.2), each with the type its identifier calls for. Fetched once per run.

import type { MasterDataTypeName } from "../definition/index.ts";
import type { RunContext } from "../engine/context.ts";
import { perRun } from "../engine/run-scope.ts";
import type { ExchangeRecord } from "../http/record.ts";
import type { PathForm } from "../model/index.ts";
import { documentAt } from "./follow.ts";
import { linksetEntries, linksOf, MASTER_DATA_LINK } from "./linkset.ts";
import { entryOf, goodLinksets } from "./linkset-answers.ts";

export const MASTER_DATA_TYPE_OF: Partial<Record<PathForm, MasterDataTypeName>> = {
  "01": "gs1:Product",
  "414": "gs1:Place",
  "417": "gs1:Organization",
};

export interface ReachedDocument {
  form: PathForm;
  /** The identifier whose link set offered the link, canonical. */
  uri: string;
  href: string;
  expected: MasterDataTypeName;
  /**
   * The link came from the entry about the identifier. Without one (RES-ANCHOR's failure) the link of the first
   * entry is still followed, so that the masterdata class judges the document, but not held to the identifier.
   */
  aboutIdentifier: boolean;
  /** The parsed document; absent when the link did not answer one. */
  doc?: unknown;
  /** Why no document was read. */
  problem?: string;
  exchange?: ExchangeRecord;
}

export const reachedDocuments = perRun(async (ctx: RunContext): Promise<ReachedDocument[]> => {
  const links = (await goodLinksets(ctx)).flatMap((a) => {
    const expected = MASTER_DATA_TYPE_OF[a.form];
    if (expected === undefined) return [];
    const read = entryOf(a);
    const entry = "entry" in read ? read.entry : linksetEntries(a.body)[0];
    if (entry === undefined) return [];
    const aboutIdentifier = "entry" in read;
    return linksOf(entry, MASTER_DATA_LINK).map((link) => ({
      a,
      expected,
      href: link.href,
      aboutIdentifier,
    }));
  });
  return Promise.all(
    links.map(async ({ a, expected, href, aboutIdentifier }): Promise<ReachedDocument> => {
      const base = { form: a.form, uri: a.uri, href, expected, aboutIdentifier };
      const linked = await documentAt(ctx, href);
      if (linked.kind === "document") return { ...base, doc: linked.doc, exchange: linked.exchange };
      const problem = `the masterData link: ${linked.problem}`;
      return linked.exchange ? { ...base, problem, exchange: linked.exchange } : { ...base, problem };
    }),
  );
});
