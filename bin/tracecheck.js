#!/usr/bin/env node
// The command runs the bundle the build made of the compiled JavaScript (dist/bundle, made by `npm ci` through the
// prepare script) when it is current, else the compiled files in dist/ when each is current, else the TypeScript
// sources through tsx (after an edit, or without a build). Either way it runs what the sources say now.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runnable } from "../scripts/compiled.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let main;
const form = runnable(root);
if (form === "bundle") {
  ({ main } = await import("../dist/bundle/src/cli/main.js"));
} else if (form === "compiled") {
  ({ main } = await import("../dist/src/cli/main.js"));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
