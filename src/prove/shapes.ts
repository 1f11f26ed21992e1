// Dataset shapes for the no-false-verdict runs: the reference without faults must pass every class whatever the
// data looks like. The generator covers sizes, event types and identifier forms; time zones and shared instants
// are laid over its output here, keeping every instant and the order of events.
import { generateDataset } from "../generate/index.ts";
import { compareInstants, formatInstant, parseInstant } from "../model/index.ts";
import type { Dataset, EpcisEvent } from "../model/types.ts";

export interface DatasetShapeCase {
  name: string;
  description: string;
  build(seed: number, scale: ShapeScale): Dataset;
}

/** Event counts: quick for npm test, full for npm run prove. */
export interface ShapeScale {
  small: number;
  usual: number;
  large: number;
}

export const QUICK_SCALE: ShapeScale = { small: 12, usual: 80, large: 400 };
export const FULL_SCALE: ShapeScale = { small: 12, usual: 200, large: 2000 };

/** Offsets from the far west to the far east, with the half and three-quarter hours some zones use. */
const OFFSETS = [
  "-12:00",
  "-09:30",
  "-05:00",
  "-00:30",
  "Z",
  "+03:30",
  "+05:45",
  "+08:45",
  "+12:45",
  "+14:00",
];

function timed(events: readonly EpcisEvent[]): { event: EpcisEvent; index: number }[] {
  return events.map((event, index) => ({ event, index })).filter((e) => e.event.eventTime !== undefined);
}

/** Every eventTime written at another offset (the instant unchanged), cycling through OFFSETS. */
export function spreadOffsets(ds: Dataset): Dataset {
  const events = ds.events.map((e, n) => {
    if (e.eventTime === undefined) return e;
    const offset = OFFSETS[n % OFFSETS.length] ?? "Z";
    const digits = /\.(\d+)/.exec(e.eventTime)?.[1]?.length ?? 0;
    return {
      ...e,
      eventTime: formatInstant(parseInstant(e.eventTime), { offset, fractionDigits: digits }),
      eventTimeZoneOffset: offset === "Z" ? "+00:00" : offset,
    };
  });
  return { ...ds, events };
}

/**
 * Every second event in time order moved back onto the instant of the one before it, written at its own offset.
 * In time order nothing lies between the two, so no event overtakes another and every chain keeps its order.
 */
export function shareInstants(ds: Dataset): Dataset {
  const order = timed(ds.events).sort((a, b) =>
    compareInstants(parseInstant(a.event.eventTime!), parseInstant(b.event.eventTime!)),
  );
  const events = [...ds.events];
  for (let k = 1; k < order.length; k += 2) {
    const earlier = order[k - 1]!.event;
    const later = order[k]!;
    const offset =
      later.event.eventTimeZoneOffset === "+00:00" ? "Z" : (later.event.eventTimeZoneOffset ?? "Z");
    events[later.index] = {
      ...later.event,
      eventTime: formatInstant(parseInstant(earlier.eventTime!), { offset }),
    };
  }
  return { ...ds, events };
}

export const DATASET_SHAPES: readonly DatasetShapeCase[] = Object.freeze([
  {
    name: "usual",
    description: "both chain kinds, identifiers and bizSteps in mixed forms",
    build: (seed, scale) => generateDataset({ seed, events: scale.usual }),
  },
  {
    name: "small",
    description: "a dataset of a dozen events",
    build: (seed, scale) => generateDataset({ seed, events: scale.small }),
  },
  {
    name: "large",
    description: "a dataset several times the usual size",
    build: (seed, scale) => generateDataset({ seed, events: scale.large }),
  },
  {
    name: "object-events-only",
    description: "one event type only: ObjectEvent",
    build: (seed, scale) => generateDataset({ seed, events: scale.usual, eventTypes: ["ObjectEvent"] }),
  },
  {
    name: "digital-link",
    description: "every EPC, class, location and party written as a Digital Link URI",
    build: (seed, scale) => generateDataset({ seed, events: scale.usual, epcForm: "dl" }),
  },
  {
    name: "web-bizstep",
    description: "every bizStep in its Web URI form",
    build: (seed, scale) => generateDataset({ seed, events: scale.usual, bizStepForm: "web" }),
  },
  {
    name: "many-offsets",
    description: `eventTimes written at ${OFFSETS.length} different UTC offsets`,
    build: (seed, scale) => spreadOffsets(generateDataset({ seed, events: scale.usual })),
  },
  {
    name: "shared-instants",
    description:
      "half the events share their eventTime instant with another event, written at another offset",
    build: (seed, scale) => shareInstants(generateDataset({ seed, events: scale.usual })),
  },
]);
