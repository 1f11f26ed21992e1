// The rooms of the house and which way their arrows point (docs/architecture.md), held in `npm test`.
// Bottom to top: src/model and src/http; src/definition; src/generate; src/engine; src/target; src/assertions;
// src/report; and over them all src/harness, src/cli and src/prove. The reference sender (src/reference) and the
// reference receiver (src/receiver) stand beside the harness and import none of it. The suites reach the target
// only through its reader (src/target), and each class's suites only their own folder.
const above = (rooms) => `^src/(${rooms.join("|")})/`;

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No import circles.", from: {}, to: { circular: true } },
    {
      name: "model-is-pure",
      severity: "error",
      comment: "src/model is the domain: it imports nothing else of ours.",
      from: { path: "^src/model/" },
      to: { path: "^(src|suites)/", pathNot: "^src/model/" },
    },
    {
      name: "http-is-the-transport",
      severity: "error",
      comment: "src/http is the one HTTP client: it imports nothing else of ours.",
      from: { path: "^src/http/" },
      to: { path: "^(src|suites)/", pathNot: "^src/http/" },
    },
    {
      name: "definition-below-the-harness",
      severity: "error",
      from: { path: "^src/definition/" },
      to: { path: "^(src|suites)/", pathNot: "^src/(definition|model|http)/" },
    },
    {
      name: "generate-below-the-harness",
      severity: "error",
      from: { path: "^src/generate/" },
      to: { path: "^(src|suites)/", pathNot: "^src/(generate|definition|model)/" },
    },
    {
      name: "engine-below-the-target",
      severity: "error",
      comment: "The engine runs checks and holds verdicts; it knows neither the target nor the reports.",
      from: { path: "^src/engine/" },
      to: {
        path: above(["target", "assertions", "report", "harness", "cli", "prove", "receiver", "reference", "generate"]),
      },
    },
    {
      name: "target-below-the-assertions",
      severity: "error",
      comment: "The reader of the target reads; judging is the assertions' and the suites'.",
      from: { path: "^src/target/" },
      to: { path: above(["assertions", "report", "harness", "cli", "prove", "receiver", "reference"]) },
    },
    {
      name: "assertions-below-the-run",
      severity: "error",
      from: { path: "^src/assertions/" },
      to: { path: above(["report", "harness", "cli", "prove", "receiver", "reference"]) },
    },
    {
      name: "reports-only-listen",
      severity: "error",
      comment: "Reporters consume verdicts and never touch the target.",
      from: { path: "^src/report/" },
      to: { path: above(["target", "assertions", "harness", "cli", "prove", "receiver", "reference", "http"]) },
    },
    {
      name: "reference-stands-alone",
      severity: "error",
      comment: "The reference sender never imports harness code.",
      from: { path: "^src/reference/" },
      to: { path: above(["engine", "target", "assertions", "report", "harness", "cli", "prove", "receiver"]) },
    },
    {
      name: "receiver-stands-alone",
      severity: "error",
      comment: "The reference receiver is a client of the spec, not of the harness.",
      from: { path: "^src/receiver/" },
      to: { path: above(["engine", "target", "assertions", "report", "harness", "cli", "prove", "reference"]) },
    },
    {
      name: "launcher-imported-by-nothing",
      severity: "error",
      comment: "Start-up lives in bin/ and the build in scripts/; nothing in src/ or suites/ imports them.",
      from: { path: "^(src|suites)/" },
      to: { path: "^(bin|scripts)/" },
    },
    {
      name: "src-never-imports-suites",
      severity: "error",
      comment: "The engine loads suite files by path; no module of src/ imports one.",
      from: { path: "^src/" },
      to: { path: "^suites/" },
    },
    {
      name: "suites-reach-the-target-through-its-reader",
      severity: "error",
      comment: "No suite names an HTTP client: every reading of the target goes through src/target.",
      from: { path: "^suites/" },
      to: { path: "^(src/http/(client|undici|body|pages|index)\\.ts|node_modules/undici/)" },
    },
    {
      name: "suites-use-what-is-below-them",
      severity: "error",
      from: { path: "^suites/" },
      to: { path: above(["harness", "report", "cli", "prove", "reference", "receiver"]) },
    },
    {
      name: "each-class-its-own-library",
      severity: "error",
      comment: "No class's suites are another class's library: what several share lives in src/target or src/assertions.",
      from: { path: "^suites/([^/]+)/" },
      to: { path: "^suites/[^/]+/", pathNot: "^suites/$1/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
