#!/usr/bin/env node
// The command runs the bundle the build made of the compiled JavaScript (dist/bundle, made by `npm ci` through the
// prepare script) when it is current, else the compiled files in dist/ when each is current, else the TypeScript
// sources through tsx (after an edit, or without a build). Either way it runs what the sources say now. The
// bundle's command is one CommonJS file, run with V8's code cache (scripts/code-cache.js).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readBundled } from "../scripts/code-cache.js";
import { bundleBuiltins, loadBuiltins, passedChecks, pathInForm, runnable } from "../scripts/compiled.js";
import { startEarlyThread } from "../scripts/early-thread.js";
import { commandFlagsApply, commandFlagsTag, flagsTag, setCommandFlags } from "../scripts/v8-flags.js";

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

// The command runs under V8 flags of its own (scripts/v8-flags.js), set before any of tracecheck's code is compiled
// or read from a code cache, so that its caches are made and read under them. Node compiles its own modules from
// the code it keeps compiled for them only under V8's default flags: the modules the bundle requires are loaded
// first, here and in the early thread (scripts/compiled.js, bundleBuiltins), and the thread's gate is opened after.
// The bundle's command and its cache are read, which compiles nothing, while the thread loads.
const bundled = form === "bundle" ? readBundled(root, "command", commandFlagsTag()) : undefined;
if (commandFlagsApply()) {
  loadBuiltins(bundleBuiltins(root, "command"));
  early?.awaitLoaded(THREAD_LOAD_WAIT_MS);
  setCommandFlags();
}
early?.open(flagsTag());

if (form === "sources") {
  const { register } = await import("tsx/esm/api");
  register();
}
const cached = bundled?.run();
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
