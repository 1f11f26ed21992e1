// What a check learns in passing about other requirements: a narrow query refused with 413, a page that loops,
// an event served with other content. Each is recorded once per check, under the requirement it concerns
// (`checks.for`), so that a filter check never fails for a defect that is not the filter's.
import type { Failure } from "../../../src/assertions/failure.ts";
import type { Checks } from "../../../src/engine/suite.ts";

export class Findings {
  readonly #first = new Map<string, Failure>();
  readonly #count = new Map<string, number>();

  note(id: string, failure: Failure): void {
    if (!this.#first.has(id)) this.#first.set(id, failure);
    this.#count.set(id, (this.#count.get(id) ?? 0) + 1);
  }

  record(checks: Checks): void {
    for (const [id, failure] of this.#first) {
      const more = (this.#count.get(id) ?? 1) - 1;
      const reason = more > 0 ? `${failure.reason} (and ${more} more like it)` : failure.reason;
      checks.for(id).fail(reason, failure.evidence);
    }
  }
}
