#!/usr/bin/env node
// The command runs the TypeScript sources directly through tsx, so a fresh `npm ci` needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
