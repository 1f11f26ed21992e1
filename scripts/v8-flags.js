// The V8 flags the command runs under (bin/tracecheck.js), and the tag of the code caches made under them
// (scripts/code-cache.js): V8 takes a code cache only under the flags it was made under, so a process that runs
// under other flags (the project's tests, its proving and benchmark processes) keeps caches of its own rather than
// have each kind remake the other's.
//
// WebAssembly in tracecheck is undici's HTTP parser, and V8's baseline compiler serves it as well as a run needs
// (--liftoff-only). Left to itself, V8 also optimises the parser's largest function on another thread as soon as a
// run has read a few answers: a quarter of a second of a core in every run, on machines that often have two, and a
// short run's process waits for it to finish before it can exit.
//
// V8 optimises a JavaScript function once it has run some of its code (its interrupt budget). A run is short: at
// the default budget, V8's optimising compiler took about a second of processor time on other threads in a run of
// two seconds at --runs 100, on a machine of two cores where the other serves the target. Four times the budget
// still has the functions a run spends its time in optimised, and took a seventh off a default run's wall time and
// a fifth off its processor time, with the same wall time at --runs 400.
import { createHash } from "node:crypto";
import v8 from "node:v8";

const COMMAND_FLAGS = "--liftoff-only --interrupt-budget=270336";
/** The tag of code caches made under the command's flags: another set of flags is another tag. */
export const COMMAND_FLAGS_TAG = `v8-${createHash("sha256").update(COMMAND_FLAGS).digest("hex").slice(0, 8)}`;
/** The key under which a thread's workerData carries the tag of the flags its process runs under. */
export const THREAD_FLAGS_TAG = "tracecheck.flagsTag";
const SET = Symbol.for("tracecheck.flagsTag");

/**
 * Whether this V8 honours the flag set while it runs: V8 up to 12 (Node 20 and 22) does; later ones read it only
 * as they start, and setting it would cost the code Node keeps compiled for its own modules for nothing.
 */
export function commandFlagsApply() {
  return Number(process.versions.v8.split(".")[0]) <= 12;
}

/** The tag of the flags the command runs under once it has set them: empty where they do not apply. */
export function commandFlagsTag() {
  return commandFlagsApply() ? COMMAND_FLAGS_TAG : "";
}

/** Sets the command's flags where they apply, for the whole process; says whether it did. */
export function setCommandFlags() {
  if (!commandFlagsApply()) return false;
  v8.setFlagsFromString(COMMAND_FLAGS);
  globalThis[SET] = COMMAND_FLAGS_TAG;
  return true;
}

/** Records, in a thread, the tag of the flags its process was set to run under, as the thread's creator said. */
export function adoptFlagsTag(tag) {
  if (tag === COMMAND_FLAGS_TAG) globalThis[SET] = COMMAND_FLAGS_TAG;
}

/** The tag of the flags this thread runs under: empty for V8's defaults. */
export function flagsTag() {
  return globalThis[SET] ?? "";
}
