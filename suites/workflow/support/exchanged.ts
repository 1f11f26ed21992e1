// What the receiver holds before the exchange (spec 1): a product identifier from an earlier step such as a
// shipment notice, given on the command line or else taken from the events the harness knows, with a note that
// says so. The party and location exchanged at setup are the resolver class's (src/target/sender.ts).

import { writtenSpelling } from "../../../src/assertions/concerns.ts";
import type { Hop } from "../../../src/assertions/trace-back.ts";
import type { RunContext } from "../../../src/engine/context.ts";
import { canonicalBizStep, canonicalId, type EpcisEvent, isDigitalLink } from "../../../src/model/index.ts";
import { elementsOf } from "../../../src/target/identifiers.ts";
import { presumedOwnership, sender } from "../../../src/target/sender.ts";

export type ProductForm = "00" | "01/10" | "01/21";

export interface Product {
  /** As the receiver holds it: --start-from, or as an event spells it. */
  id: string;
  /**
   * The GET /events query on the identifier alone: MATCH_anyEPC for an SSCC or serial, a class for a lot; its
   * value as the events write it where one does (a sender may match identifiers only as written).
   */
  hop: Hop;
  /** Some event the harness knows holds the hop's value exactly as written. */
  written: boolean;
  note: string;
}

function formOf(id: string): ProductForm | undefined {
  const ais = elementsOf(id)
    ?.map((e) => e.ai)
    .join("/");
  return ais === "00" || ais === "01/10" || ais === "01/21" ? ais : undefined;
}

function productOf(id: string, form: ProductForm, note: string, events: readonly EpcisEvent[]): Product {
  const written = writtenSpelling(events, id, form === "01/10" ? "class" : "epc");
  // None of the events holds it: a Digital Link under the resolver's own base is asked under the canonical base.
  const value = written ?? (isDigitalLink(id) ? canonicalId(id) : id);
  const hop: Hop =
    form === "01/10" ? { parameter: "MATCH_anyEPCClass", value } : { parameter: "MATCH_anyEPC", value };
  return { id, hop, written: written !== undefined, note };
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
 * seed draws from the shipped logistic units, then the shipped items, then any identifier of the events, the
 * sender's own first in each.
 */
export function chooseProduct(ctx: RunContext, events: readonly EpcisEvent[]): Product | undefined {
  let skipped = "";
  if (ctx.startFrom !== undefined) {
    const form = formOf(ctx.startFrom);
    if (form !== undefined)
      return productOf(ctx.startFrom, form, `the product is --start-from ${ctx.startFrom}`, events);
    skipped = `--start-from ${ctx.startFrom} names no SSCC, lot or serial, so `;
  }
  const values = sender(ctx);
  for (const all of candidates(events)) {
    // The sender's own identifiers first: it need not resolve another company's (spec 4.2 leaves that open).
    const own = all.filter((id) => presumedOwnership(values, id) !== undefined);
    const tier = own.length > 0 ? own : all;
    if (tier.length === 0) continue;
    const id = tier[((ctx.seed % tier.length) + tier.length) % tier.length]!;
    return productOf(
      id,
      formOf(id)!,
      `${skipped}the product ${id} was drawn with seed ${ctx.seed} from the events`,
      events,
    );
  }
  return undefined;
}
