#!/usr/bin/env node
// The command runs the bundle the build made of the compiled JavaScript (dist/bundle, made by `npm ci` through the
// prepare script) when it is current, else the compiled files in dist/ when each is current, else the TypeScript
// sources through tsx (after an edit, or without a build). Either way it runs what the sources say now.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { pathInForm, runnable } from "../scripts/compiled.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const form = runnable(root);
if (form === "sources") {
  const { register } = await import("tsx/esm/api");
  register();
}
const { main } = await import(pathToFileURL(pathInForm(root, form, "src/cli/main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
