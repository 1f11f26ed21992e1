#!/usr/bin/env node
// Bundles tracecheck's TypeScript sources into one ES module bundle in dist/ with esbuild, which bin/tracecheck.js
// runs while it is current (bin/launch.js): loading one module graph from a few files starts a run faster than
// having each of some 270 sources resolved, loaded and transpiled. Types are not checked here: `npm run check` does
// that. Run by `npm ci` (prepare), before `npm test` and before `npm run bench`; a build finding the bundle current
// does nothing.
//
// The entry points are the command, the embedded reference's thread, the proving worker and every suite file, built
// together so that they share one copy of each module: a suite file the engine imports registers its checks with
// the engine of the same bundle. Each entry keeps its source's path under dist/ (src/cli/main.ts is
// dist/src/cli/main.js); what they share is split into dist/chunks.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BUNDLED_PACKAGES, bundleCurrent, bundlePaths, ROOT, sourceFiles, stampOf } from "../bin/launch.js";

const ENTRIES = ["src/cli/main.ts", "src/reference/thread-worker.ts", "src/prove/worker.ts"];

if (bundleCurrent(ROOT)) process.exit(0);

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  process.stdout.write("build: esbuild is not installed; tracecheck will run its sources through tsx\n");
  process.exit(0);
}

// Of the packages, those every run loads (the HTTP client and the reference's server) and the largest a full run
// loads (the JSON-LD processor, fast-check) go in with what they import, which spares resolving and loading their
// files one by one; the rest stay outside, imported from node_modules as they are.
const inside = new Set(BUNDLED_PACKAGES);
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
// jsonld's own document loader fetches contexts over the network with an HTTP client of its own (and a second
// undici); tracecheck gives every JSON-LD call its own loader (src/target/jsonld/), so that client is left out and
// any use of it fails loudly rather than reach the network.
const NO_NETWORK_CLIENT = `const refuse = () => {
  throw new Error("jsonld's network document loader is not part of tracecheck; pass a documentLoader.");
};
module.exports = { httpClient: new Proxy({}, { get: refuse }) };
`;
// fastify requires these only when asked for what the reference never asks of it: route schemas (it is given
// compilers of its own, src/reference/server.ts), a logger, inject(). Outside the bundle, they stay out of the
// reference's start-up (a third of its loading), and are still found in node_modules if ever required.
const FASTIFY_ON_DEMAND = new Set([
  "@fastify/ajv-compiler",
  "@fastify/fast-json-stringify-compiler",
  "pino",
  "light-my-request",
]);
const somePackagesInside = {
  name: "some-packages-inside",
  setup(build) {
    build.onResolve({ filter: /^@digitalbazaar\/http-client$/ }, (args) => ({
      path: args.path,
      namespace: "left-out",
    }));
    build.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({
      contents: NO_NETWORK_CLIENT,
      loader: "js",
    }));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const folders = args.importer.split(path.sep);
      const inPackage = folders.indexOf("node_modules");
      if (
        inPackage >= 0 &&
        folders[inPackage + 1] === "fastify" &&
        FASTIFY_ON_DEMAND.has(packageOf(args.path))
      ) {
        return { path: args.path, external: true };
      }
      if (inPackage >= 0 || inside.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const { dir, stamp } = bundlePaths(ROOT);
const sources = sourceFiles(ROOT);
const entryPoints = [
  ...ENTRIES,
  ...sources.filter((s) => s.startsWith("suites/") && s.endsWith(".suite.ts")),
];
rmSync(dir, { recursive: true, force: true });
try {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: dir,
    outbase: ROOT,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    plugins: [somePackagesInside],
    // The packages inside that are CommonJS require Node's modules, which an ES module has no require for.
    banner: {
      js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);',
    },
    chunkNames: "chunks/[name]-[hash]",
    logLevel: "silent",
  });
} catch (err) {
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`build: the sources could not be bundled: ${err.message}\n`);
  process.exit(1);
}
// Written last: a bundle without its stamp is never run.
writeFileSync(stamp, `${JSON.stringify(stampOf(ROOT, sources))}\n`);
process.stdout.write(`build: ${entryPoints.length} entry points bundled into ${path.relative(ROOT, dir)}/\n`);
