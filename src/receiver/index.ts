export { type EventFetcher, fetchLink, fetchQuery } from "./events.ts";
export { checkedReceiverFaults, RECEIVER_FAULT_IDS, RECEIVER_FAULTS, type ReceiverFault } from "./faults.ts";
export { type LinkType, linksetHrefs } from "./linkset.ts";
export { readableTrace } from "./print.ts";
export {
  type ResolveBy,
  runTrace,
  TraceError,
  type TraceOptions,
  type TraceOutcome,
} from "./trace.ts";
