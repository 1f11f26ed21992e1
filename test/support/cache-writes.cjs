// Preloaded (node --require) into a command a test runs: lists each code cache file the process, or any of its
// threads, writes (scripts/code-cache.js writes one whole by renaming it into place) in the file that
// TRACECHECK_TEST_CACHE_WRITES names, so that a test sees what this process wrote and not what others did.
const fs = require("node:fs");
const { syncBuiltinESMExports } = require("node:module");

const log = process.env.TRACECHECK_TEST_CACHE_WRITES;
if (log) {
  const rename = fs.renameSync;
  fs.renameSync = function renameAndList(from, to) {
    rename(from, to);
    if (String(to).endsWith(".v8")) fs.appendFileSync(log, `${to}\n`);
  };
  // ES modules that imported renameSync by name see this one too.
  syncBuiltinESMExports();
}
