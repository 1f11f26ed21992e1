// The events suite's answers to GET /events, read by the harness's one reader (src/target/events.ts: every page
// followed, a 413 told apart from other refusals, a paging defect from a filter defect) and kept per URL for the
// run, so that checks that need the same query ask once.

import type { RunContext } from "../../../src/engine/context.ts";
import type { EventQuery } from "../../../src/model/types.ts";
import { eventsUrl } from "../../../src/target/client.ts";
import { type EventsAnswer, exchangeOf, queryEvents } from "../../../src/target/events.ts";

export type Answer = EventsAnswer;
export { exchangeOf };

/** Answers by URL for one run: each distinct request is sent once. */
export class AnswerCache {
  /** `answers` is the run's, shared by its checks, and `ctx` the run's context, which asks what is not there yet. */
  constructor(
    private readonly ctx: RunContext,
    private readonly answers: Map<string, Promise<Answer>>,
  ) {}

  get(q: EventQuery | string): Promise<Answer> {
    const url = eventsUrl(this.ctx, q);
    let answer = this.answers.get(url);
    if (answer === undefined) {
      answer = queryEvents(this.ctx, q);
      this.answers.set(url, answer);
    }
    return answer;
  }
}
