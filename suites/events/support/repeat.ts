// EVT-REPEAT-NOT-PIPE's decision (spec 4.1 rule 2: "Repeating the key is not equivalent"), taken on the target's
// own answers and never on the oracle's: a sender whose pipe-joined answer is wrong and whose repeat answers the
// same wrong events still reads the repeat as the pipe-joined value. Equal answers prove that reading only where
// the pipe-joined answer differs from each value's answer alone, since a repeat answered from one of its values
// would otherwise look the same. The answers are asked one stage at a time, so that a sender that refuses the
// repeat, as most do, costs one request.

/** What the target did with one of the queries a repeat is judged by. */
export type Reading =
  /** Answered with events: `events` is the answered set as one comparable string. */
  | { kind: "answered"; events: string }
  /** 413, as too broad (spec 7). */
  | { kind: "too-broad" }
  /** Another 4xx. */
  | { kind: "refused"; status: number }
  /** No usable answer: a 5xx, a broken body or broken paging, which other requirements judge. */
  | { kind: "unusable" };

/** The answers known so far for one repeat: the repeat itself, then the pipe-joined query, then each value alone. */
export interface RepeatAnswers {
  repeat: Reading;
  pipe?: Reading;
  singles?: readonly [Reading, Reading];
}

export type RepeatJudgement =
  | { need: "pipe" | "singles" }
  | { verdict: "not-pipe" | "as-pipe" | "undecided"; why: string };

/** The verdict the answers give, or the answer still needed to reach one. */
export function judgeRepeat(a: RepeatAnswers): RepeatJudgement {
  const { repeat, pipe, singles } = a;
  if (repeat.kind === "refused") {
    return { verdict: "not-pipe", why: `the repeat was refused with status ${repeat.status}` };
  }
  if (repeat.kind === "unusable") return { verdict: "undecided", why: "the repeat got no usable answer" };
  if (pipe === undefined) return { need: "pipe" };
  if (pipe.kind === "unusable") {
    return { verdict: "undecided", why: "the pipe-joined query got no usable answer" };
  }
  if (repeat.kind === "too-broad") {
    return pipe.kind === "answered"
      ? { verdict: "not-pipe", why: "the repeat was refused as too broad, the pipe-joined query answered" }
      : { verdict: "undecided", why: "the repeat and the pipe-joined query were both refused" };
  }
  if (pipe.kind !== "answered") {
    return { verdict: "not-pipe", why: "the repeat was answered, the pipe-joined query refused" };
  }
  if (repeat.events !== pipe.events) {
    return {
      verdict: "not-pipe",
      why: "the repeat was answered with other events than the pipe-joined query",
    };
  }
  if (singles === undefined) return { need: "singles" };
  if (singles.some((s) => s.kind !== "answered")) {
    return {
      verdict: "undecided",
      why: "the repeat answered the pipe-joined query's events, and a value alone was not answered to tell whether that answer is one value's",
    };
  }
  if (singles.some((s) => s.kind === "answered" && s.events === pipe.events)) {
    return {
      verdict: "undecided",
      why: "the repeat answered the pipe-joined query's events, which are also one value's answer alone, so the repeat may have been answered from that value",
    };
  }
  return {
    verdict: "as-pipe",
    why: "the repeat was answered with exactly the pipe-joined query's events, which neither value answers alone",
  };
}
