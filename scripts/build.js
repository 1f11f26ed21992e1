#!/usr/bin/env node
// Compiles src/ and suites/ into dist/ as JavaScript, file by file, so that `tracecheck` starts without
// transpiling at run time (bin/tracecheck.js). Types are not checked here: `npm run check` does that. A file whose
// compiled form is newer than it is left alone, and compiled files whose source is gone are removed, so a
// second build after an edit takes a moment. Run by `npm ci` (prepare) and before `npm test`.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compiledPairs, mtime, SOURCE_FOLDERS, staleSources } from "./compiled.js";

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
// Compiled code that asks whether dist/ is current (src/prove/run-pool.ts) finds the same module beside it.
const helper = path.join(out, "scripts", "compiled.js");
const helperSource = path.join(root, "scripts", "compiled.js");
if ((mtime(helper) ?? 0) < (mtime(helperSource) ?? 0)) {
  mkdirSync(path.dirname(helper), { recursive: true });
  copyFileSync(helperSource, helper);
  compiled += 1;
}
if (compiled + removed > 0) {
  process.stdout.write(`build: ${compiled} file(s) compiled into dist/, ${removed} removed\n`);
}
