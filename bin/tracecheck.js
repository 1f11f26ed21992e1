#!/usr/bin/env node
// The command runs the ES module bundle the build made in dist/ (`npm ci` makes it through the prepare script)
// while it is current, else the TypeScript sources through tsx (after an edit, or without a build), so that it always
// runs what the sources say now (bin/launch.js).
import { pathToFileURL } from "node:url";
import { currentForm, entryOf, ROOT } from "./launch.js";

const form = currentForm(ROOT);
if (form === "sources") {
  const { register } = await import("tsx/esm/api");
  register();
}
const { main } = await import(pathToFileURL(entryOf(ROOT, "src/cli/main.ts", form).file).href);
process.exitCode = await main(process.argv.slice(2));
