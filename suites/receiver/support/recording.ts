// The recording of a receiver's session as its checks read it, once per session: the recorded requests, the key
// and the task the receiver was given, and the master data the sender's link sets offer for that task. The session
// (src/harness/receiver/session.ts) hands the recording over in the run context; these are its views.
import type { RunContext } from "../../../src/engine/context.ts";
import { perRun } from "../../../src/engine/run-scope.ts";
import type { EpcisEvent } from "../../../src/model/index.ts";
import { type ReceiverTask, taskOf } from "../../../src/model/receiver-task.ts";
import { type MasterDataOffers, masterDataOffers, subjectsOf } from "./offers.ts";
import { hrefUses, type ReceivedRequest, readRequests } from "./requests.ts";

export interface ReceiverSession {
  /** What the receiver sent, oldest first. */
  requests: readonly ReceivedRequest[];
  /** The key given to the receiver at setup. */
  key: string;
  task: ReceiverTask;
  /** The events the sender holds, as loaded: what the oracle selects from. */
  events: readonly EpcisEvent[];
  /** Whether the sender refuses a request to where `r` went without the key. */
  keyUsed(r: ReceivedRequest): boolean;
  /** The requests that asked a path of the receiver's own making (RCV-MASTERDATA-HREF fails each). */
  built: readonly ReceivedRequest[];
}

/** The session the run judges; throws in a run that recorded none (a sender's). */
export const sessionOf = perRun((ctx: RunContext): ReceiverSession => {
  const recording = ctx.receiver;
  if (recording === undefined || ctx.apiKey === undefined) {
    throw new Error(
      "the receiver class judges a receiver's recorded session, which only tracecheck receiver makes",
    );
  }
  const key = ctx.apiKey;
  const requests = readRequests(recording.exchanges, ctx, key);
  const required = recording.keyRequired;
  return {
    requests,
    key,
    task: taskOf(recording.events, recording.task),
    events: recording.events,
    keyUsed: (r) => (r.kind === "events" ? required.events : required.resolver),
    built: hrefUses(requests).flatMap((use) => (use.source === undefined ? [use.request] : [])),
  };
});

/**
 * The master data the sender's link sets offer for what the task's trace names, asked of its resolver once per
 * session (offers.ts), with the run's client: those look-ups are the grading's own, no check's proof.
 */
export const offersOf = perRun((ctx: RunContext): Promise<MasterDataOffers> => {
  const { task } = sessionOf(ctx);
  const subjects = subjectsOf(task.trace.events.values(), [task.product]);
  return masterDataOffers(ctx, subjects);
});
