// Progress while the suites run: per chosen class, how many of its requirements have a verdict so far, with the
// last one and its status. A bar per class on a terminal, one plain line per finished test otherwise (a CI log).
import { createRequire } from "node:module";
import type cliProgress from "cli-progress";
import type { Level, Status } from "../engine/types.ts";
import { statusAtLevel } from "../engine/verdicts.ts";
import { paint } from "./ansi.ts";
import { CONFORMANCE_CLASSES } from "./classes.ts";
import { progressLine, STATUS_PAINT } from "./console.ts";
import { singleLine, stripTerminalControls } from "./text.ts";

/** A requirement the run chose, at the level it is judged at. */
export interface ProgressRequirement {
  id: string;
  class: string;
  level: Level;
}

/** What the engine says when a test finishes: its folder's class and the last verdict it recorded. */
export interface FinishedTest {
  class: string;
  id?: string;
  status?: Status;
}

export interface ProgressOptions {
  requirements: readonly ProgressRequirement[];
  /** Where plain lines go (stderr: stdout is for the summary and --json). */
  write: (line: string) => void;
  color: boolean;
  /** A terminal to draw the bars on; without one every finished test is a plain line. */
  terminal?: NodeJS.WritableStream;
}

interface ClassCount {
  total: number;
  seen: Set<string>;
  bar?: cliProgress.SingleBar;
}

export class RunProgress {
  readonly #byId = new Map<string, ProgressRequirement>();
  readonly #classes = new Map<string, ClassCount>();
  readonly #write: (line: string) => void;
  readonly #color: boolean;
  readonly #bars: cliProgress.MultiBar | undefined;

  constructor(opts: ProgressOptions) {
    this.#write = opts.write;
    this.#color = opts.color;
    for (const r of opts.requirements) {
      this.#byId.set(r.id, r);
      const count = this.#classes.get(r.class) ?? { total: 0, seen: new Set<string>() };
      count.total += 1;
      this.#classes.set(r.class, count);
    }
    if (opts.terminal === undefined || this.#classes.size === 0) return;
    const order = (c: string): number => {
      const i = (CONFORMANCE_CLASSES as readonly string[]).indexOf(c);
      return i < 0 ? CONFORMANCE_CLASSES.length : i;
    };
    const width = Math.max(...[...this.#classes.keys()].map((c) => c.length));
    // Loaded for a terminal only: a run in a CI log draws no bar.
    const bars = createRequire(import.meta.url)("cli-progress") as typeof cliProgress;
    this.#bars = new bars.MultiBar({
      stream: opts.terminal,
      format: "{cls} {bar} {value}/{total} requirements  {last}",
      barCompleteChar: "█",
      barIncompleteChar: "░",
      barsize: 30,
      clearOnComplete: false,
      stopOnComplete: false,
    });
    for (const [cls, count] of [...this.#classes].sort(([a], [b]) => order(a) - order(b))) {
      count.bar = this.#bars.create(count.total, 0, {
        cls: stripTerminalControls(cls).padEnd(width),
        last: "",
      });
    }
  }

  /**
   * Counts a finished test. Its status is the check's own, which for a SHOULD or MAY requirement is "fail" where
   * the report says "warn": it is mapped through the requirement's level so that both say the same word.
   */
  record(test: FinishedTest): void {
    const req = test.id === undefined ? undefined : this.#byId.get(test.id);
    const cls = req?.class ?? test.class;
    const count = this.#classes.get(cls);
    if (req !== undefined) count?.seen.add(req.id);
    const status =
      test.status !== undefined && req !== undefined ? statusAtLevel(test.status, req.level) : test.status;
    const done = count?.seen.size ?? 0;
    if (count?.bar !== undefined) {
      const last = [
        test.id === undefined ? "" : singleLine(test.id),
        status === undefined ? "" : paint(status.toUpperCase(), STATUS_PAINT[status], this.#color),
      ].join(" ");
      count.bar.update(done, { last });
      return;
    }
    const event = { class: cls, done, ...(count === undefined ? {} : { total: count.total }) };
    this.#write(
      progressLine(
        {
          ...event,
          ...(test.id === undefined ? {} : { id: test.id }),
          ...(status === undefined ? {} : { status }),
        },
        { color: this.#color },
      ),
    );
  }

  /** Leaves the bars as they stand, so that the summary prints below them. */
  stop(): void {
    this.#bars?.stop();
  }
}
