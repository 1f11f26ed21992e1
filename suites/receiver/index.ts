// The receiver class as the session uses it (src/harness/receiver/session.ts): the task a receiver is given, and
// the verdicts over what it sent.
import type { ReceiverGrader } from "../../src/harness/receiver/session.ts";
import { gradeReceiver } from "./grade.ts";
import { masterDataOffers, subjectsOf } from "./offers.ts";
import { chooseTask, type ReceiverTask } from "./task.ts";

export type GradedReceiverTask = ReceiverTask & { traceEvents: number };

export const RECEIVER_GRADER: ReceiverGrader<GradedReceiverTask> = {
  chooseTask(events, senderGln) {
    const task = chooseTask(events, senderGln);
    return { ...task, traceEvents: task.trace.events.size };
  },
  async grade(input) {
    const subjects = subjectsOf(input.task.trace.events.values(), [input.task.product]);
    const offers = await masterDataOffers(input.client, input.resolverBase, subjects);
    return gradeReceiver({ ...input, offers });
  },
};
