#!/usr/bin/env node
// Compiles src/ and suites/ into dist/ as JavaScript, file by file, so that `tracecheck` starts without
// transpiling at run time (bin/tracecheck.js). Types are not checked here: `npm run check` does that. A file whose
// compiled form is newer than it is left alone, and compiled files whose source is gone are removed, so a
// second build after an edit takes a moment. Then it bundles the compiled command and suites into dist/bundle, which
// bin/tracecheck.js runs while it is current: loading one module graph from a few files starts a run faster than
// resolving and loading some 260. Run by `npm ci` (prepare) and before `npm test`.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asciiOnly } from "./ascii-only.js";
import {
  BUNDLED_PACKAGES,
  bundleBuiltinsFile,
  bundleCurrent,
  bundledVersions,
  bundlePaths,
  COMMONJS_BUNDLES,
  compiledPairs,
  isPlainBuiltin,
  mtime,
  SOURCE_FOLDERS,
  SUITE_LOADERS,
  sourceNames,
  staleSources,
} from "./compiled.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist");
const wanted = new Set(compiledPairs(root).map((p) => p.target));
const stale = staleSources(root);

let ts;
if (stale.length > 0) {
  try {
    ts = (await import("typescript")).default;
  } catch {
    // Installed without devDependencies: bin/tracecheck.js runs the sources through tsx instead.
    process.stdout.write("build: typescript is not installed; tracecheck will run its sources through tsx\n");
    process.exit(0);
  }
}
let compiled = 0;
for (const { source, target } of stale) {
  const result = ts.transpileModule(readFileSync(source, "utf8"), {
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
      rewriteRelativeImportExtensions: true,
    },
    fileName: source,
    reportDiagnostics: true,
  });
  const problems = result.diagnostics ?? [];
  if (problems.length > 0) {
    const text = ts.formatDiagnostics(problems, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    });
    process.stderr.write(`build: ${path.relative(root, source)} could not be compiled:\n${text}`);
    process.exit(1);
  }
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, result.outputText);
  compiled += 1;
}
let removed = 0;
for (const folder of SOURCE_FOLDERS) {
  let entries = [];
  try {
    entries = readdirSync(path.join(out, folder), { recursive: true, withFileTypes: true });
  } catch {
    continue;
  }
  for (const e of entries) {
    const file = path.join(e.parentPath, e.name);
    if (e.isFile() && !wanted.has(file)) {
      rmSync(file);
      removed += 1;
    }
  }
}
// Compiled code that uses the scripts' modules (src/prove/run-pool.ts asks whether dist/ is current, the validators
// run with the code cache) finds the same modules beside it.
for (const name of ["compiled.js", "code-cache.js", "v8-flags.js"]) {
  const helper = path.join(out, "scripts", name);
  const helperSource = path.join(root, "scripts", name);
  if ((mtime(helper) ?? 0) < (mtime(helperSource) ?? 0)) {
    mkdirSync(path.dirname(helper), { recursive: true });
    copyFileSync(helperSource, helper);
    compiled += 1;
  }
}
if (compiled + removed > 0) {
  process.stdout.write(`build: ${compiled} file(s) compiled into dist/, ${removed} removed\n`);
}

// The bundle, in two builds. The proving worker and every suite file are entry points of one ES module build, so
// that a suite file and the engine that loads it share one copy of each module (the suites register their checks
// with it). The command and the reference's thread are each one CommonJS file (below). Of the packages, those every
// run loads (the HTTP client and the reference's server) and the largest a full run loads (the JSON-LD processor,
// fast-check) go in with what they import, which spares resolving and loading their files one by one; the rest stay
// outside, imported from node_modules as they are. A bundle made before the last install of packages is not run
// (compiled.js).
const bundled = new Set(BUNDLED_PACKAGES);
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
// jsonld's own document loader fetches contexts over the network with an HTTP client of its own (and a second
// undici); tracecheck gives every JSON-LD call its own loader (src/harness/jsonld/), so that client is left out and
// any use of it fails loudly rather than reach the network.
const JSONLD_NETWORK_CLIENT = "@digitalbazaar/http-client";
const NO_NETWORK_CLIENT = `const refuse = () => {
  throw new Error("jsonld's network document loader is not part of tracecheck; pass a documentLoader.");
};
module.exports = { httpClient: new Proxy({}, { get: refuse }) };
`;
// fastify requires these only when asked for what the reference never asks of it: route schemas (it is given
// compilers of its own, src/reference/server.ts), a logger, inject(). Outside the bundle, they stay out of the
// reference's thread's start-up (a third of its loading), and are still found in node_modules if ever required.
const FASTIFY_ON_DEMAND = new Set([
  "@fastify/ajv-compiler",
  "@fastify/fast-json-stringify-compiler",
  "pino",
  "light-my-request",
]);
const somePackagesInside = {
  name: "some-packages-inside",
  setup(build) {
    build.onResolve({ filter: /^@digitalbazaar\/http-client$/ }, () => ({
      path: JSONLD_NETWORK_CLIENT,
      namespace: "left-out",
    }));
    build.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({
      contents: NO_NETWORK_CLIENT,
      loader: "js",
    }));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const folders = args.importer.split(path.sep);
      const fromPackage = folders.includes("node_modules");
      const fromFastify = folders.some(
        (name, at) => name === "fastify" && folders[at - 1] === "node_modules",
      );
      if (fromFastify && FASTIFY_ON_DEMAND.has(packageOf(args.path))) {
        return { path: args.path, external: true };
      }
      if (fromPackage || bundled.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};
// The command and the reference's thread are one CommonJS file each (COMMONJS_BUNDLES), which bin/tracecheck.js
// and scripts/bundle-thread.js run with V8's code cache (scripts/code-cache.js): Node 20 keeps none for ES modules.
// The command's file holds every suite file, each evaluated only when the engine loads it (SUITE_LOADERS), so that
// the suites register their checks with the engine of the same file; the engine still lists the suite files of the
// ES module build, and reads them for the requirements they name.
const SUITES_ENTRY = "commonjs-command.js";
function commandEntry(entryPoints) {
  const suitesDir = path.join(out, "suites");
  const loaders = entryPoints
    .filter((file) => file.startsWith(suitesDir + path.sep))
    .map((file) => {
      const name = path.relative(suitesDir, file).split(path.sep).join("/");
      return `  [${JSON.stringify(name)}, () => import(${JSON.stringify(`./suites/${name}`)})],`;
    });
  return [
    `globalThis[Symbol.for(${JSON.stringify(SUITE_LOADERS)})] = new Map([`,
    ...loaders,
    "]);",
    'export { main } from "./src/cli/main.js";',
    "",
  ].join("\n");
}
// suite.ts loads vitest with a top-level await when it runs in a vitest worker, which a bundle never does, and
// CommonJS has no top-level await.
const VITEST_LOAD = 'const vitest = "__vitest_worker__" in globalThis ? await import("vitest") : undefined;';
const noVitest = {
  name: "no-vitest",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]harness[\\/]suite\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes(VITEST_LOAD))
        throw new Error(`${args.path} no longer loads vitest as the build expects.`);
      return { contents: text.replace(VITEST_LOAD, "const vitest = undefined;"), loader: "js" };
    });
  },
};
// Modules of Node's own that Node itself loads for what a bundle does, which its requires do not name: a server's
// listen loads the cluster module, to ask whether the process is a cluster's worker (the reference listens in the
// thread, and in the command's own thread for `serve` and a reference run there).
const LOADED_BY_NODE = { command: ["node:cluster"], thread: ["node:cluster"] };
async function commonJsBundles(esbuild, entryPoints) {
  const builtins = {};
  const entryFile = path.join(out, SUITES_ENTRY);
  writeFileSync(entryFile, commandEntry(entryPoints));
  const sources = {
    command: entryFile,
    thread: path.join(out, "src", "reference", "thread-worker.js"),
  };
  try {
    for (const [name, entry] of Object.entries(sources)) {
      const outfile = path.join(bundle.dir, COMMONJS_BUNDLES[name]);
      const built = await esbuild.build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        format: "cjs",
        platform: "node",
        target: "node20",
        plugins: [noVitest, somePackagesInside],
        // A module's own location, which some find files by, is the bundle file's.
        define: { "import.meta.url": "__bundleFileUrl" },
        // Strict throughout, as the ES modules it is made of are: a directive counts only before any statement.
        banner: {
          js: '"use strict";\nconst __bundleFileUrl = require("node:url").pathToFileURL(__filename).href;',
        },
        logLevel: "silent",
        metafile: true,
      });
      const imported = Object.values(built.metafile.outputs).flatMap((o) => o.imports);
      const loaded = imported.filter((i) => i.kind === "dynamic-import" && i.external).map((i) => i.path);
      if (loaded.length > 0) {
        throw new Error(
          `${name} imports ${loaded.join(", ")} with import(), which it cannot run; import it through importModule.`,
        );
      }
      const own = imported
        .filter((i) => i.kind === "require-call" && i.external && isPlainBuiltin(i.path))
        .map((i) => (i.path.startsWith("node:") ? i.path : `node:${i.path}`));
      builtins[name] = [...new Set([...own, ...(LOADED_BY_NODE[name] ?? [])])].sort();
      await asciiOnly(esbuild, outfile);
    }
    writeFileSync(bundleBuiltinsFile(root), `${JSON.stringify(builtins, null, 1)}\n`);
  } finally {
    rmSync(entryFile, { force: true });
  }
}
const bundle = bundlePaths(root);
const pairs = compiledPairs(root);
if (!bundleCurrent(root, pairs)) {
  rmSync(bundle.dir, { recursive: true, force: true });
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    process.stdout.write(
      "build: esbuild is not installed; tracecheck will run the compiled files in dist/\n",
    );
    process.exit(0);
  }
  const entryPoints = [
    path.join(out, "src", "prove", "worker.js"),
    ...pairs
      .map((p) => p.target)
      .filter((t) => t.startsWith(path.join(out, "suites") + path.sep) && t.endsWith(".suite.js")),
  ];
  try {
    await esbuild.build({
      entryPoints,
      outdir: bundle.dir,
      outbase: out,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      plugins: [somePackagesInside],
      // The packages inside are CommonJS and require Node's modules, which an ES module bundle has no require for.
      banner: {
        js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);',
      },
      chunkNames: "chunks/[name]-[hash]",
      logLevel: "silent",
    });
  } catch (err) {
    rmSync(bundle.dir, { recursive: true, force: true });
    process.stderr.write(`build: the compiled files could not be bundled: ${err.message}\n`);
    process.exit(1);
  }
  try {
    await commonJsBundles(esbuild, entryPoints);
  } catch (err) {
    rmSync(bundle.dir, { recursive: true, force: true });
    process.stderr.write(`build: the compiled files could not be bundled as CommonJS: ${err.message}\n`);
    process.exit(1);
  }
  // Written last: a bundle without its stamp is never run.
  const stamp = { sources: sourceNames(root, pairs), packages: bundledVersions(root) };
  writeFileSync(bundle.stamp, `${JSON.stringify(stamp, null, 1)}\n`);
  process.stdout.write(
    `build: ${entryPoints.length} entry points bundled into ${path.relative(root, bundle.dir)}/\n`,
  );
}
