// fast-check arbitraries shared by the model tests: instants, identifiers in both forms, events and queries.
import fc from "fast-check";
import { bizStepForms, CBV_BIZSTEPS } from "../../src/model/bizstep.ts";
import { gs1CheckDigit } from "../../src/model/check-digit.ts";
import { digitalLinkToEpcUrn } from "../../src/model/identifiers.ts";
import { addUnits, formatInstant } from "../../src/model/instant.ts";
import type { EpcisEvent, EventQuery, Instant, QueryParameter } from "../../src/model/types.ts";

export const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

// Epoch seconds of 0002-01-01T00:00:00Z and 9998-12-31T23:59:59Z: any offset keeps them within 0001-9999.
const MIN_SECONDS = -62_104_060_800n;
const MAX_SECONDS = 253_370_764_799n;

export const fractionArb = (maxDigits: number) => digits(0, maxDigits).map((f) => f.replace(/0+$/, ""));

export const instantArb = (maxDigits = 12): fc.Arbitrary<Instant> =>
  fc.record({ epochSeconds: fc.bigInt(MIN_SECONDS, MAX_SECONDS), fraction: fractionArb(maxDigits) });

export const offsetArb: fc.Arbitrary<string> = fc.oneof(
  fc.constant("Z"),
  fc
    .record({ sign: fc.constantFrom("+", "-"), minutes: fc.integer({ min: 0, max: 14 * 60 }) })
    .map(
      ({ sign, minutes }) =>
        `${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`,
    ),
);

/** An instant written at a random offset and with random extra fractional zeros. */
export const writtenInstantArb = (i: Instant) =>
  fc
    .record({ offset: offsetArb, pad: fc.integer({ min: 0, max: 4 }) })
    .map(({ offset, pad }) => formatInstant(i, { offset, fractionDigits: i.fraction.length + pad }));

// GS1 AI encodable character set 82.
export const CSET_82 = "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
export const cset82Arb = (max = 20) =>
  fc.string({ unit: fc.constantFrom(...CSET_82), minLength: 1, maxLength: max });

export const withCheck = (body: string) => body + gs1CheckDigit(body);

export const gtinArb = digits(13, 13).map(withCheck);
export const glnArb = digits(12, 12).map(withCheck);
export const ssccArb = digits(17, 17).map(withCheck);
export const cpLengthArb = fc.integer({ min: 6, max: 12 });

const DL = "https://id.gs1.org";

/** A small pool of identifiers so that generated events and queries overlap. */
export interface Pool {
  gtins: string[];
  serials: string[];
  lots: string[];
  glns: string[];
  ssccs: string[];
  instants: Instant[];
  cpLength: number;
}

export const poolArb: fc.Arbitrary<Pool> = fc.record({
  gtins: fc.uniqueArray(gtinArb, { minLength: 1, maxLength: 3 }),
  serials: fc.uniqueArray(cset82Arb(6), { minLength: 1, maxLength: 3 }),
  lots: fc.uniqueArray(cset82Arb(6), { minLength: 1, maxLength: 3 }),
  glns: fc.uniqueArray(glnArb, { minLength: 1, maxLength: 3 }),
  ssccs: fc.uniqueArray(ssccArb, { minLength: 1, maxLength: 2 }),
  instants: fc.array(instantArb(9), { minLength: 1, maxLength: 4 }),
  cpLength: cpLengthArb,
});

const enc = encodeURIComponent;

/** The same identifier in Digital Link or EPC URN form, chosen at random. */
function eitherForm(dl: string, cpLength: number): fc.Arbitrary<string> {
  const urn = digitalLinkToEpcUrn(dl, cpLength);
  return urn === undefined ? fc.constant(dl) : fc.constantFrom(dl, urn);
}

/** The Digital Link of one of the pool's GTINs with one of `values` under `ai` (21 a serial, 10 a lot). */
const gtinWithArb = (p: Pool, ai: "21" | "10", values: string[]): fc.Arbitrary<string> =>
  fc
    .record({ g: fc.constantFrom(...p.gtins), v: fc.constantFrom(...values) })
    .map(({ g, v }) => `${DL}/01/${g}/${ai}/${enc(v)}`);

export const epcArb = (p: Pool): fc.Arbitrary<string> =>
  fc
    .oneof(
      gtinWithArb(p, "21", p.serials),
      fc.constantFrom(...p.ssccs).map((s) => `${DL}/00/${s}`),
    )
    .chain((dl) => eitherForm(dl, p.cpLength));

export const classArb = (p: Pool): fc.Arbitrary<string> =>
  fc
    .oneof(
      gtinWithArb(p, "10", p.lots),
      fc.constantFrom(...p.gtins).map((g) => `${DL}/01/${g}`),
    )
    .chain((dl) => eitherForm(dl, p.cpLength));

export const locationArb = (p: Pool): fc.Arbitrary<string> =>
  fc.constantFrom(...p.glns).chain((g) => eitherForm(`${DL}/414/${g}`, p.cpLength));

export const bizStepArb: fc.Arbitrary<string> = fc
  .record({
    step: fc.constantFrom(...CBV_BIZSTEPS.slice(0, 6)),
    form: fc.constantFrom("short", "urn", "webUri"),
  })
  .map(({ step, form }) => bizStepForms(step)[form as "short" | "urn" | "webUri"]);

const quantityListArb = (p: Pool) =>
  fc.option(
    fc.array(
      classArb(p).map((epcClass) => ({ epcClass, quantity: 1 })),
      { maxLength: 2 },
    ),
    {
      nil: undefined,
    },
  );

/** A time near one of the pool's instants (itself or one unit of some precision either side), written at random. */
export const timeArb = (p: Pool): fc.Arbitrary<string> =>
  fc
    .record({
      at: fc.constantFrom(...p.instants),
      step: fc.constantFrom(-1n, 0n, 1n),
      digits: fc.integer({ min: 0, max: 9 }),
    })
    .chain(({ at, step, digits }) => writtenInstantArb(addUnits(at, step, digits)));

const optionalTimeArb = (p: Pool) => fc.option(timeArb(p), { nil: undefined });

export const eventArb = (p: Pool): fc.Arbitrary<EpcisEvent> =>
  fc
    .record({
      type: fc.constantFrom("ObjectEvent", "AggregationEvent", "TransformationEvent"),
      eventTime: optionalTimeArb(p),
      recordTime: optionalTimeArb(p),
      bizStep: fc.option(bizStepArb, { nil: undefined }),
      epcList: fc.option(fc.array(epcArb(p), { maxLength: 2 }), { nil: undefined }),
      parentID: fc.option(epcArb(p), { nil: undefined }),
      outputEPCList: fc.option(fc.array(epcArb(p), { maxLength: 2 }), { nil: undefined }),
      quantityList: quantityListArb(p),
      inputQuantityList: quantityListArb(p),
      transformationID: fc.option(fc.constantFrom("urn:uuid:t-1", "urn:uuid:t-2", "T-1"), { nil: undefined }),
      bizLocation: fc.option(
        locationArb(p).map((id) => ({ id })),
        { nil: undefined },
      ),
    })
    .map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as EpcisEvent);

/** Events that carry distinct eventIDs, so that result sets compare by identity. */
export const eventsArb = (p: Pool) =>
  fc
    .array(eventArb(p), { maxLength: 12 })
    .map((events) => events.map((e, k) => ({ ...e, eventID: `urn:uuid:event-${k}` })));

const listArb = (values: fc.Arbitrary<string>) =>
  fc.option(fc.array(values, { maxLength: 3 }), { nil: undefined });

/** Where the values of each list parameter come from. */
export interface ListValueArbs {
  epc: fc.Arbitrary<string>;
  epcClass: fc.Arbitrary<string>;
  bizStep: fc.Arbitrary<string>;
  location: fc.Arbitrary<string>;
}

/**
 * An arbitrary for each of the nine parameters of spec 4.1, in order: `time` for the four bounds, and `list` of
 * the given values for the five lists (transformation ids from a fixed few).
 */
export function parameterArbs<T, L>(
  time: fc.Arbitrary<T>,
  list: (values: fc.Arbitrary<string>) => fc.Arbitrary<L>,
  values: ListValueArbs,
): Record<QueryParameter, fc.Arbitrary<T | L>> {
  return {
    LT_recordTime: time,
    GE_recordTime: time,
    LT_eventTime: time,
    GE_eventTime: time,
    MATCH_anyEPC: list(values.epc),
    MATCH_anyEPCClass: list(values.epcClass),
    EQ_bizStep: list(values.bizStep),
    EQ_transformationID: list(fc.constantFrom("urn:uuid:t-1", "urn:uuid:t-2", "T-1")),
    EQ_bizLocation: list(values.location),
  };
}

export const queryArb = (p: Pool): fc.Arbitrary<EventQuery> =>
  fc
    .record(
      parameterArbs(optionalTimeArb(p), listArb, {
        epc: epcArb(p),
        epcClass: classArb(p),
        bizStep: bizStepArb,
        location: locationArb(p),
      }),
    )
    .map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as EventQuery);

export const idsOf = (events: readonly EpcisEvent[]): string[] => events.map((e) => e.eventID ?? "");
