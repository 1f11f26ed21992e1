// The link set of spec 2.3: one entry about the requested identifier, its links grouped by link type.
import { CANONICAL_DL_BASE, formatDigitalLink } from "../../model/index.ts";
import type { ReferenceContext } from "../types.ts";
import { type Catalogue, itemDescription } from "./catalogue.ts";
import { LINK_TYPE_NAMES, linkTypeUri } from "./link-types.ts";
import type { OfferedLinks, Requested } from "./links.ts";

export function linksetBody(
  id: Requested,
  links: OfferedLinks,
  ctx: ReferenceContext,
  catalogue: Catalogue,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    anchor: anchorOf(id, ctx),
    itemDescription: ctx.faults.has("res-itemdescription-number")
      ? Number(id.elements[0]?.value)
      : itemDescription(catalogue, id.elements),
  };
  for (const name of LINK_TYPE_NAMES) {
    const link = links[name];
    if (link !== undefined) entry[linkTypeUri(name, ctx.config.linkTypeNamespace)] = [link];
  }
  return { linkset: ctx.faults.has("res-no-linkset-array") ? entry : [entry] };
}

function anchorOf(id: Requested, ctx: ReferenceContext): string {
  if (ctx.faults.has("res-anchor-wrong")) return ctx.resolverBase();
  if (ctx.faults.has("res-lot-anchor-gtin") && id.form === "01/10") {
    return formatDigitalLink("", id.elements.slice(0, 1));
  }
  const base = ctx.config.canonicalAnchors ? CANONICAL_DL_BASE : ctx.resolverBase();
  return formatDigitalLink(base, id.elements);
}
