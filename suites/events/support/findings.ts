// What a check learns in passing about other requirements: a narrow query refused with 413, a page that loops,
// an event served with other content. Each is recorded once per check, under the requirement it concerns
// (`checks.for`), so that a filter check never fails for a defect that is not the filter's.
import type { Failure } from "../../../src/assertions/failure.ts";
import type { Checks } from "../../../src/engine/suite.ts";

interface Note {
  id: string;
  failure: Failure;
}

export class Findings {
  /** The notes made here and the findings of the cases opened here, in the order they were made or opened. */
  readonly #entries: (Note | Findings)[] = [];

  note(id: string, failure: Failure): void {
    this.#entries.push({ id, failure });
  }

  /**
   * The findings of one of several cases run at once. Its notes count in the order the case was opened, not in
   * the order the cases' answers came back, so that the finding a report shows first is the same run after run.
   */
  forCase(): Findings {
    const findings = new Findings();
    this.#entries.push(findings);
    return findings;
  }

  #notes(): Note[] {
    return this.#entries.flatMap((e) => (e instanceof Findings ? e.#notes() : [e]));
  }

  record(checks: Checks): void {
    const first = new Map<string, Failure>();
    const count = new Map<string, number>();
    for (const { id, failure } of this.#notes()) {
      if (!first.has(id)) first.set(id, failure);
      count.set(id, (count.get(id) ?? 0) + 1);
    }
    for (const [id, failure] of first) {
      const more = (count.get(id) ?? 1) - 1;
      const reason = more > 0 ? `${failure.reason} (and ${more} more like it)` : failure.reason;
      checks.for(id).fail(reason, failure.evidence);
    }
  }
}
