// The links the resolver offers for an identifier: which link types each path form has (spec 4.2's table)
// and where each one leads.
import type { DigitalLinkElement, EventQuery, PathForm } from "../../model/index.ts";
import { CANONICAL_DL_BASE, encodeQuery } from "../../model/index.ts";
import type { ReferenceContext } from "../types.ts";
import { type Catalogue, canonicalUri } from "./catalogue.ts";
import type { LinkTypeName } from "./link-types.ts";
import { isOwnKey } from "./own.ts";

export interface Link {
  href: string;
  title?: string;
  type?: string;
}

export type OfferedLinks = Partial<Record<LinkTypeName, Link>>;

const EPCIS_TITLES: Record<Exclude<PathForm, "01">, string> = {
  "00": "EPCIS events of this logistic unit",
  "417": "EPCIS repository of this party",
  "414": "EPCIS events at this location",
  "01/10": "EPCIS events of this lot",
  "01/21": "EPCIS events of this item",
};

const MASTER_DATA_TYPES: Record<"01" | "414" | "417", string> = {
  "01": "gs1:Product",
  "414": "gs1:Place",
  "417": "gs1:Organization",
};

export interface Requested {
  form: PathForm;
  elements: DigitalLinkElement[];
  uri: string;
}

/** Whether a configuration that treats the sender's own apart counts the identifier as its own. */
export function isOwn(id: Requested, catalogue: Catalogue): boolean {
  return (
    (catalogue.own.party !== undefined && id.uri === catalogue.own.party) ||
    isOwnKey(catalogue.own, id.elements[0])
  );
}

export function offeredLinks(id: Requested, ctx: ReferenceContext, catalogue: Catalogue): OfferedLinks {
  const links: OfferedLinks = {};
  if (id.form !== "01") links.epcis = epcisLink(id, id.form, ctx, catalogue);
  if (ctx.faults.has("res-product-epcis-empty") && id.form === "01") {
    // An EPC query names instances; a GTIN is none, so the link selects nothing.
    links.epcis = {
      href: `${ctx.eventsBase()}/events?${encodeQuery({ MATCH_anyEPC: [id.uri] })}`,
      title: "EPCIS events of this product",
      type: "application/ld+json",
    };
  }
  // Spec 4.2 lets a party or location be "reachable with gs1:masterData or gs1:epcis": with
  // partyLocationMasterData "own", only the sender's own offer master data beside epcis; with "none", none does.
  const offers = ctx.config.partyLocationMasterData;
  const epcisOnly =
    (id.form === "414" || id.form === "417") &&
    (offers === "none" || (offers === "own" && !isOwn(id, catalogue)));
  if (!epcisOnly && (id.form === "01" || id.form === "414" || id.form === "417")) {
    const target = masterDataTarget(id, ctx, catalogue);
    if (target !== undefined) {
      // In receiver mode at a path no client can build (src/reference/opaque-hrefs.ts).
      const path =
        ctx.opaqueHrefs?.masterDataPath(target) ?? `/masterdata${target.slice(CANONICAL_DL_BASE.length)}`;
      links.masterData = {
        href: `${ctx.resolverBase()}${path}`,
        title: `Master data (${MASTER_DATA_TYPES[id.form]})`,
        type: "application/ld+json",
      };
    }
  }
  const preferred = links.masterData ?? links.epcis;
  if (preferred !== undefined) links.defaultLink = { ...preferred };

  if (ctx.faults.has("res-missing-epcis-link") && id.form === "01/10") delete links.epcis;
  if (ctx.faults.has("res-missing-masterdata-link") && id.form === "01") delete links.masterData;
  if (ctx.faults.has("res-no-title")) {
    for (const link of Object.values(links)) delete link.title;
  }
  return links;
}

function epcisLink(
  id: Requested,
  form: Exclude<PathForm, "01">,
  ctx: ReferenceContext,
  catalogue: Catalogue,
): Link {
  let subject = id.uri;
  if (ctx.faults.has("res-epcis-link-wrong-id") && (form === "01/10" || form === "01/21")) {
    subject = canonicalUri(id.elements.slice(0, 1));
  }
  if (ctx.faults.has("res-last-product-lots") && form === "01/10") {
    const { lastWithLots, otherLot } = productsOf(catalogue);
    if (otherLot !== undefined && canonicalUri(id.elements.slice(0, 1)) === lastWithLots) subject = otherLot;
  }
  // The party's link is the repository itself (spec 1, step 2); the others select the identifier's events.
  const query: EventQuery = {};
  if (form === "00" || form === "01/21") query.MATCH_anyEPC = [subject];
  if (form === "01/10") query.MATCH_anyEPCClass = [subject];
  if (form === "414") query.EQ_bizLocation = [subject];
  const path = ctx.faults.has("res-epcis-link-broken") ? "/event" : "/events";
  // The query interface itself (spec 1, step 2: the resolver "returns the location of the Sender's EPCIS
  // repository"); the receiver asks it for the identifier.
  const search = ctx.config.epcisLinks === "query-interface" ? "" : encodeQuery(query);
  return {
    href: `${ctx.eventsBase()}${path}${search === "" ? "" : `?${search}`}`,
    title: EPCIS_TITLES[form],
    type: "application/ld+json",
  };
}

/** What the faults confined to one product pick, once per catalogue. */
interface Products {
  /** The first and last GTIN in numeric order (canonical URIs). */
  first?: string;
  last?: string;
  /** The last GTIN with lots, and the first lot of another GTIN (else its first lot's value under another GTIN). */
  lastWithLots?: string;
  otherLot?: string;
}

const products = new WeakMap<Catalogue, Products>();

function productsOf(catalogue: Catalogue): Products {
  let found = products.get(catalogue);
  if (found !== undefined) return found;
  const productBase = `${CANONICAL_DL_BASE}/01/`;
  const gtins = [...catalogue.documents.keys()].filter((k) => k.startsWith(productBase)).sort();
  const lots = [...catalogue.identifiers]
    .filter((k) => k.startsWith(productBase) && k.includes("/10/"))
    .sort();
  const gtinOfLot = (lot: string) => lot.slice(0, lot.indexOf("/10/"));
  const lastWithLots = lots.map(gtinOfLot).at(-1);
  found = {};
  if (gtins[0] !== undefined) found.first = gtins[0];
  if (gtins.length > 1) found.last = gtins.at(-1);
  if (lastWithLots !== undefined) {
    found.lastWithLots = lastWithLots;
    const otherGtin = gtins.find((g) => g !== lastWithLots);
    const ownLot = lots.find((lot) => gtinOfLot(lot) === lastWithLots);
    const other =
      lots.find((lot) => gtinOfLot(lot) !== lastWithLots) ??
      (otherGtin === undefined || ownLot === undefined
        ? undefined
        : otherGtin + ownLot.slice(lastWithLots.length));
    if (other !== undefined) found.otherLot = other;
  }
  products.set(catalogue, found);
  return found;
}

/** The canonical URI of the document the masterData link leads to. */
function masterDataTarget(id: Requested, ctx: ReferenceContext, catalogue: Catalogue): string | undefined {
  if (ctx.faults.has("res-last-product-masterdata") && id.form === "01") {
    const { first, last } = productsOf(catalogue);
    if (last !== undefined && id.uri === last) return first;
  }
  if (ctx.faults.has("res-masterdata-wrong-type") && id.form === "01") {
    const keys = [...catalogue.documents.keys()];
    const other = (ai: string) => keys.find((k) => k.startsWith(`${CANONICAL_DL_BASE}/${ai}/`));
    return other("414") ?? other("417") ?? id.uri;
  }
  return catalogue.documents.has(id.uri) ? id.uri : undefined;
}
