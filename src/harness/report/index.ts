export { formatSummary, type ProgressEvent, progressLine, useColor } from "./console.ts";
export { type Change, diffReports, formatDiff, type ReportDiff } from "./diff.ts";
export { exitCodeFor } from "./exit-code.ts";
export { toHtml } from "./html.ts";
export { type JsonSummary, jsonSummary } from "./json-summary.ts";
export { toJunit } from "./junit.ts";
export { validateReport } from "./validate.ts";
export { writeReports } from "./write.ts";
