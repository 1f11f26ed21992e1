#!/usr/bin/env node
// The command runs the bundle the build made of the compiled JavaScript (dist/bundle, made by `npm ci` through the
// prepare script) when it is current, else the compiled files in dist/ when each is current, else the TypeScript
// sources through tsx (after an edit, or without a build). Either way it runs what the sources say now. The
// bundle's command is one CommonJS file, run with V8's code cache (scripts/code-cache.js).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";
import { runBundled } from "../scripts/code-cache.js";
import { bundleBuiltins, loadBuiltins, passedChecks, pathInForm, runnable } from "../scripts/compiled.js";
import { startEarlyThread } from "../scripts/early-thread.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
/** How long the command waits for the early thread to load Node's modules before it sets its flags. */
const THREAD_LOAD_WAIT_MS = 500;

// Before anything else: a run against the embedded reference starts the reference's thread here, so that the
// thread loads while the command does (scripts/early-thread.js).
const early = startEarlyThread(root, argv);
const form = runnable(root);
// Only the bundle's thread is taken by a run; another form's run starts its own.
if (form !== "bundle") early?.end();

// WebAssembly here is undici's HTTP parser, and V8's baseline compiler serves it as well as a run needs. Left to
// itself, V8 also optimises the parser's largest function on another thread as soon as a run has read a few pages:
// a quarter of a second of a core, in every run, on machines that often have two, and a short run's process waits
// for it to finish before it can exit. The flag is set before any of tracecheck's code is compiled or read from a
// code cache, so that the caches are all made and read under the same flags. Node compiles its own modules from the
// code it keeps compiled for them only under the default flags: the modules the bundle requires, in this thread and
// in the early thread, are loaded first (scripts/compiled.js, bundleBuiltins), and then the thread's gate is opened.
if (form === "bundle") loadBuiltins(bundleBuiltins(root, "command"));
early?.awaitLoaded(THREAD_LOAD_WAIT_MS);
v8.setFlagsFromString("--liftoff-only");
early?.open();

if (form === "sources") {
  const { register } = await import("tsx/esm/api");
  register();
}
const cached = form === "bundle" ? runBundled(root, "command") : undefined;
const { main } =
  cached?.exports ?? (await import(pathToFileURL(pathInForm(root, form, "src/cli/main.ts")).href));
try {
  process.exitCode = await main(argv, early);
} finally {
  early?.end();
  // The more checks passed, the more of the command's usual path the run compiled: a cache made by a run that ran
  // less of it (one that ended before its checks, or failed them, whatever suite files it loaded) is made again.
  cached?.save(passedChecks());
}
