// What the receiver holds before the exchange (spec 1): the party and location exchanged at setup, and a
// product identifier from an earlier step such as a shipment notice. Given on the command line, else taken
// from the events the harness knows, with a note that says so.
import type { Hop } from "../../../src/harness/assertions/trace-back.ts";
import type { RunContext } from "../../../src/harness/context.ts";
import {
  CANONICAL_DL_BASE,
  canonicalBizStep,
  canonicalId,
  type DigitalLinkElement,
  type EpcisEvent,
  formatDigitalLink,
  idValue,
  isDigitalLink,
  PARTY_FIELDS,
  parseDigitalLink,
} from "../../../src/model/index.ts";

function elementsOf(id: string): DigitalLinkElement[] | undefined {
  try {
    return parseDigitalLink(canonicalId(id)).elements;
  } catch {
    return undefined;
  }
}

/** The canonical URI of the key alone (/417/…, /414/…, /01/…) when the identifier's first AI is `ai`. */
export function keyUri(id: string, ai: string): string | undefined {
  const first = elementsOf(id)?.[0];
  return first?.ai === ai ? formatDigitalLink(CANONICAL_DL_BASE, [first]) : undefined;
}

/** A party or place given as a URI string or as an object with an id. */
function mostCommon(values: readonly string[]): { value: string; count: number } | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: { value: string; count: number } | undefined;
  for (const [value, count] of counts) if (best === undefined || count > best.count) best = { value, count };
  return best;
}

function partyOf(e: EpcisEvent): string | undefined {
  for (const field of PARTY_FIELDS) {
    const id = idValue(e[field]);
    const uri = id === undefined ? undefined : keyUri(id, "417");
    if (uri !== undefined) return uri;
  }
  return undefined;
}

export interface SetupValues {
  party?: string;
  gln?: string;
  /** How the values were obtained, for the verdict's note. */
  notes: string[];
}

/** The party (…/417/{pgln}) and GLN (…/414/{gln}) exchanged at setup: --party and --gln, else the events'. */
export function setupValues(ctx: RunContext, events: readonly EpcisEvent[]): SetupValues {
  const out: SetupValues = { notes: [] };
  if (ctx.party !== undefined) out.party = ctx.party;
  else {
    const found = mostCommon(events.flatMap((e) => partyOf(e) ?? []));
    if (found !== undefined) {
      out.party = found.value;
      out.notes.push(
        `no --party given: took ${found.value}, the information provider of ${found.count} of ${events.length} events`,
      );
    }
  }
  if (ctx.gln !== undefined) {
    const gln = ctx.gln.trim();
    out.gln = /^\d{13}$/.test(gln) ? formatDigitalLink(CANONICAL_DL_BASE, [{ ai: "414", value: gln }]) : gln;
  } else {
    const own = events.filter((e) => out.party !== undefined && partyOf(e) === out.party);
    const places = (list: readonly EpcisEvent[]) =>
      list.flatMap((e) => {
        const id = idValue(e.bizLocation);
        return (id === undefined ? undefined : keyUri(id, "414")) ?? [];
      });
    const found = mostCommon(places(own)) ?? mostCommon(places(events));
    if (found !== undefined) {
      out.gln = found.value;
      out.notes.push(`no --gln given: took ${found.value}, the business location of ${found.count} events`);
    }
  }
  return out;
}

export type ProductForm = "00" | "01/10" | "01/21";

export interface Product {
  /** As the receiver holds it: --start-from, or as an event spells it. */
  id: string;
  /** The GET /events query on the identifier alone: MATCH_anyEPC for an SSCC or serial, a class for a lot. */
  hop: Hop;
  note: string;
}

function formOf(id: string): ProductForm | undefined {
  const ais = elementsOf(id)
    ?.map((e) => e.ai)
    .join("/");
  return ais === "00" || ais === "01/10" || ais === "01/21" ? ais : undefined;
}

function productOf(id: string, form: ProductForm, note: string): Product {
  // A Digital Link under the resolver's own base is queried under the canonical base, as EPCIS stores it.
  const value = isDigitalLink(id) ? canonicalId(id) : id;
  const hop: Hop =
    form === "01/10" ? { parameter: "MATCH_anyEPCClass", value } : { parameter: "MATCH_anyEPC", value };
  return { id, hop, note };
}

/** The identifiers a shipment notice would carry: those of shipping events, logistic units first. */
function candidates(events: readonly EpcisEvent[]): string[][] {
  const shipped = events.filter(
    (e) => typeof e.bizStep === "string" && canonicalBizStep(e.bizStep) === "shipping",
  );
  const units: string[] = [];
  const items: string[] = [];
  const anywhere: string[] = [];
  const collect = (list: readonly EpcisEvent[], into: (id: string, form: ProductForm) => void) => {
    for (const e of list) {
      const epcs = [...(e.epcList ?? []), ...(typeof e.parentID === "string" ? [e.parentID] : [])];
      const classes = (e.quantityList ?? []).map((q) => q.epcClass);
      for (const id of [...epcs, ...classes]) {
        const form = formOf(id);
        if (form !== undefined) into(id, form);
      }
    }
  };
  collect(shipped, (id, form) => (form === "00" ? units : items).push(id));
  collect(events, (id) => anywhere.push(id));
  const unique = (ids: string[]) => [...new Map(ids.map((id) => [canonicalId(id), id])).values()];
  return [unique(units), unique(items), unique(anywhere)];
}

/**
 * The product the receiver starts from: --start-from when it names an SSCC, a lot or a serial; else one the
 * seed draws from the shipped logistic units, then the shipped items, then any identifier of the events.
 */
export function chooseProduct(ctx: RunContext, events: readonly EpcisEvent[]): Product | undefined {
  let skipped = "";
  if (ctx.startFrom !== undefined) {
    const form = formOf(ctx.startFrom);
    if (form !== undefined)
      return productOf(ctx.startFrom, form, `the product is --start-from ${ctx.startFrom}`);
    skipped = `--start-from ${ctx.startFrom} names no SSCC, lot or serial, so `;
  }
  for (const tier of candidates(events)) {
    if (tier.length === 0) continue;
    const id = tier[((ctx.seed % tier.length) + tier.length) % tier.length]!;
    return productOf(
      id,
      formOf(id)!,
      `${skipped}the product ${id} was drawn with seed ${ctx.seed} from the events`,
    );
  }
  return undefined;
}
