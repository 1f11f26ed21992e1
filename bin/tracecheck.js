#!/usr/bin/env node
// The command runs the JavaScript that `npm ci` compiled into dist/ (the prepare script) when every source under
// src/ and suites/ has its compiled file and none is newer than it; otherwise, after an edit or without a build, it
// runs the TypeScript sources through tsx. Either way it runs what the sources say now.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { staleSources } from "../scripts/compiled.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let main;
if (staleSources(root).length === 0) {
  ({ main } = await import("../dist/src/cli/main.js"));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
