import type { Evidence } from "../engine/types.ts";
import { eventFacts } from "./evidence-facts.ts";
import { jsonText } from "./text.ts";

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
}

function idList(label: string, ids: string[]): string {
  return `${label} (${ids.length}): ${ids.join(", ")}`;
}

/**
 * Each missing and extra event whose values the evidence records, one line each: the value of every field the
 * query reads beside what the query asks of it, e.g. "missing urn:uuid:…: eventTime 2021-04-18T04:41:17Z, which
 * meets GE_eventTime (eventTime at or after 2021-04-18T04:41:17Z)".
 */
function eventLines(evidence: Evidence): string[] {
  const found = eventFacts(evidence);
  if (found === undefined) return [];
  const byParameter = new Map(found.facts.map((f) => [f.parameter, f]));
  return found.events.flatMap((event) => {
    if (event.values === undefined) return [];
    const values = event.values.map((v) => {
      const fact = byParameter.get(v.parameter);
      const held = `${fact?.field ?? v.parameter} ${v.value}`;
      if (v.meets === undefined || fact === undefined) return held;
      return `${held}, which ${v.meets ? "meets" : "does not meet"} ${v.parameter} (${fact.asks})`;
    });
    return [`  ${event.side} ${event.id}: ${values.join("; ")}`];
  });
}

/** One evidence item as plain text, in the order a reader follows it: what was sent, what came back, why. */
export function evidenceText(evidence: Evidence): string {
  const lines: string[] = [];
  if (evidence.message !== undefined) lines.push(evidence.message);
  if (evidence.request) {
    lines.push(`request: ${evidence.request.method} ${evidence.request.url}`);
    lines.push(...headerLines(evidence.request.headers));
  }
  if (evidence.response) {
    const { status, bodyBytes, truncated } = evidence.response;
    lines.push(`status: ${status} (${bodyBytes} bytes${truncated ? ", excerpt truncated" : ""})`);
    lines.push(...headerLines(evidence.response.headers));
    if (evidence.response.bodyExcerpt !== "") lines.push(`body: ${evidence.response.bodyExcerpt}`);
  }
  if (evidence.expected !== undefined) lines.push(`expected: ${jsonText(evidence.expected)}`);
  if (evidence.actual !== undefined) lines.push(`actual: ${jsonText(evidence.actual)}`);
  if (evidence.missing && evidence.missing.length > 0) lines.push(idList("missing", evidence.missing));
  if (evidence.extra && evidence.extra.length > 0) lines.push(idList("extra", evidence.extra));
  lines.push(...eventLines(evidence));
  if (evidence.seed !== undefined) lines.push(`seed: ${evidence.seed}`);
  if (evidence.counterexample !== undefined)
    lines.push(`counterexample: ${jsonText(evidence.counterexample)}`);
  if (evidence.curl !== undefined) lines.push(`curl: ${evidence.curl}`);
  return lines.join("\n");
}

/** Every evidence item of a requirement, separated by a blank line. */
export function evidenceListText(evidence: readonly Evidence[]): string {
  return evidence.map(evidenceText).join("\n\n");
}
