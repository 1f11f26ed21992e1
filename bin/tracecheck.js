#!/usr/bin/env node
// The command runs the ES module bundle the build made in dist/ (`npm ci` makes it through the prepare script)
// while it is current, else the TypeScript sources through tsx (after an edit, or without a build), so that it always
// runs what the sources say now (bin/launch.js).
import module from "node:module";
import { pathToFileURL } from "node:url";
import { currentForm, entryOf, ROOT } from "./launch.js";

// Node 22 and later keep the code V8 compiled for the modules they load, in a folder of Node's own choosing unless
// NODE_COMPILE_CACHE names one. In interleaved auth runs it took about 10 ms of 0.24 s off on Node 22 and 24, and
// nothing measurable off a full run; Node 20 has none. It is enabled for this thread alone and not written into the
// environment, which every process tracecheck starts inherits (the receiver under test among them): passed on to
// the reference's thread that way, it changed nothing measurable.
module.enableCompileCache?.();

const form = currentForm(ROOT);
if (form === "sources") {
  const { register } = await import("tsx/esm/api");
  register();
}
const { main } = await import(pathToFileURL(entryOf(ROOT, "src/cli/main.ts", form).file).href);
process.exitCode = await main(process.argv.slice(2));
