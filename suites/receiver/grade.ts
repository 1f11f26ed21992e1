// The receiver class: every requirement RCV-* judged over what the reference sender recorded of one receiver's
// session. The checks are plain functions of the recording; the verdicts they give are aggregated and reported
// by the same machinery as a sender's (src/harness/receiver/session.ts).
import type { CheckVerdict } from "../../src/harness/verdicts.ts";
import type { EpcisEvent } from "../../src/model/index.ts";
import type { RecordedExchange } from "../../src/reference/recording.ts";
import {
  checkNarrowing,
  checkPaging,
  checkProduct,
  checkTrace,
  type MasterDataOffers,
} from "./fetched.checks.ts";
import { checkEpcisLinks, checkHrefs } from "./links.checks.ts";
import { readRequests, type SenderBases } from "./requests.ts";
import { checkResolver } from "./resolver.checks.ts";
import type { ReceiverTask } from "./task.ts";
import { VerdictSink } from "./verdicts.ts";
import { checkKey, checkQueries } from "./wire.checks.ts";

export interface ReceiverRecording extends SenderBases {
  exchanges: readonly RecordedExchange[];
  /** The key given to the receiver at setup. */
  apiKey: string;
  task: ReceiverTask;
  /** The events the sender holds, as loaded: what the oracle selects from. */
  events: readonly EpcisEvent[];
  /** The master data the sender's link sets offer for the trace (offers.ts). */
  offers: MasterDataOffers;
  /** Where the sender refuses a request without the key; both when not given. */
  keyRequired?: { events: boolean; resolver: boolean };
}

/** The verdicts of every RCV-* requirement over one recording. */
export function gradeReceiver(recording: ReceiverRecording): CheckVerdict[] {
  const sink = new VerdictSink();
  const checks = sink.for("RCV-KEY-HEADER");
  const requests = readRequests(recording.exchanges, recording, recording.apiKey);
  const key = recording.apiKey;
  const required = recording.keyRequired ?? { events: true, resolver: true };
  checkKey(checks, requests, key, (r) => (r.kind === "events" ? required.events : required.resolver));
  checkQueries(checks, requests, key);
  checkResolver(checks, requests, key, recording.task.identifier);
  checkEpcisLinks(checks, requests, key);
  const built = checkHrefs(checks, requests, key);
  checkProduct(checks, requests, key, recording.task, recording.events, recording.offers, built);
  checkPaging(checks, requests, key);
  checkNarrowing(checks, requests, key, recording.task, recording.events);
  checkTrace(checks, requests, key, recording.task, recording.offers, built);
  return sink.verdicts;
}
