// The configurations a receiver is judged against (`tracecheck receiver --reference-config`): four named
// configurations of the reference sender that change what a receiver meets (pages, refusals of broad queries,
// identifiers answered in Digital Link form, a resolver of its own with anchors under https://id.gs1.org), and
// two that exist only for receivers; every other named configuration of the sender may be chosen as well. Those
// two are kept apart from REFERENCE_CONFIGURATIONS on purpose: they refuse queries a sender must answer, so they
// are no sender to certify.
import {
  type NamedConfiguration,
  REFERENCE_CONFIGURATIONS,
  referenceConfiguration,
} from "./configurations.ts";
import type { ReferenceConfig } from "./types.ts";

export interface ReceiverConfiguration {
  name: string;
  description: string;
  config: Partial<ReferenceConfig>;
  /** Set when the resolver and master data listen on a server of their own (0: a free port). */
  resolverPort?: number;
  /** GET /events refuses with 413 every query answering more than this many events (recording.ts). */
  refuseOver?: number;
  /** The refusal reaches a query for one EPC, lot or serial too (recording.ts). */
  refuseOne?: boolean;
}

/** A handful: below the events a single lot or item gathers over its chain, so that time windows are needed. */
export const NARROW_ONLY_LIMIT = 3;

const FROM_SENDERS = ["paged", "refuse-broad", "digital-link", "split-resolver"] as const;

function fromSender(named: NamedConfiguration): ReceiverConfiguration {
  const out: ReceiverConfiguration = {
    name: named.name,
    description: named.description,
    config: named.config,
  };
  if (named.resolverPort !== undefined) out.resolverPort = named.resolverPort;
  return out;
}

export const RECEIVER_CONFIGURATIONS: readonly ReceiverConfiguration[] = Object.freeze([
  ...FROM_SENDERS.map((name) => fromSender(referenceConfiguration(name))),
  {
    name: "narrow-only",
    description: `Refuses with 413 every GET /events query whose answer would hold more than ${NARROW_ONLY_LIMIT} events (spec 7, 8: the threshold is the sender's), unless it asks for one EPC, lot or serial, so that only a receiver that asks fewer values at a time and eventTime windows gets the whole trace, and every receiver the product's own events.`,
    config: {},
    refuseOver: NARROW_ONLY_LIMIT,
  },
  {
    name: "narrow-windows",
    description: `Refuses with 413 every GET /events query whose answer would hold more than ${NARROW_ONLY_LIMIT} events, one EPC, lot or serial too (spec 7, 8: the threshold is the sender's), so that only a receiver that asks eventTime windows gets the events of an identifier with a long history.`,
    config: {},
    refuseOver: NARROW_ONLY_LIMIT,
    refuseOne: true,
  },
]);

/**
 * Every configuration a receiver can be judged against: those above first, then the other named configurations
 * of the reference sender, each a freedom of a sender that a receiver may meet.
 */
export const RECEIVER_CONFIGURATION_NAMES: readonly string[] = [
  ...RECEIVER_CONFIGURATIONS.map((c) => c.name),
  ...REFERENCE_CONFIGURATIONS.map((c) => c.name).filter(
    (n) => !(FROM_SENDERS as readonly string[]).includes(n),
  ),
];

/** The receiver configuration called `name`; an unknown name is an error that lists the known ones. */
export function receiverConfiguration(name: string): ReceiverConfiguration {
  const found = RECEIVER_CONFIGURATIONS.find((c) => c.name === name);
  if (found !== undefined) return found;
  const sender = REFERENCE_CONFIGURATIONS.find((c) => c.name === name);
  if (sender !== undefined) return fromSender(sender);
  throw new Error(
    `Unknown reference configuration "${name}"; use one of ${RECEIVER_CONFIGURATION_NAMES.join(", ")}.`,
  );
}
