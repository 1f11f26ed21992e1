// The trace from each requirement to the spec's own words: its `spec` quote must be one passage of the spec, and
// a MUST must rest on words that carry it, in the quote or in a `carrier` sentence of its own (spec 1: "Everything described here is mandatory for a conforming solution.";
// what the spec marks "not shown" is left open, so it never backs a MUST). The quoting convention is the one the
// header of suites/requirements.yaml describes.
import type { Level, Requirement } from "./types.ts";

/** Words that make a quote carry a MUST: the spec's "must" and "mandatory", and the filters' "Only events whose". */
const MUST_WORDS: readonly RegExp[] = [/\bmust\b/i, /\bmandatory\b/i, /\bOnly events whose\b/];
const NOT_SHOWN = /\bnot shown\b/i;

// A sentence starts at the start of a line (after a list or heading marker) or after a sentence's end, and ends
// with its own punctuation before a space, a line end or the end of the text.
const SENTENCE_START = String.raw`(?<=^|\n(?:[-*+] |\d+\. |#{1,6} )?|[.!?] )`;
const SENTENCE_END = String.raw`(?=$| |\n)`;

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The spec as the matcher reads it: one line per paragraph, list item, heading or table row, whitespace-collapsed
 * (a hard-wrapped paragraph is joined back into one line), and the set of its table rows.
 */
export interface SpecText {
  text: string;
  /** The table rows in the order of the file; a table's rows stand next to each other. */
  rows: readonly string[];
}

const BLOCK_START = /^(?:\||#{1,6} |[-*+] |\d+\. )/;

export function readSpecText(markdown: string): SpecText {
  const blocks: string[] = [];
  let open = false;
  for (const raw of markdown.split(/\r?\n/)) {
    const line = collapseWhitespace(raw);
    const last = blocks.length - 1;
    if (line === "") {
      open = false;
    } else if (
      open &&
      !BLOCK_START.test(line) &&
      !blocks[last]!.startsWith("|") &&
      !blocks[last]!.startsWith("#")
    ) {
      blocks[last] = `${blocks[last]} ${line}`;
    } else {
      blocks.push(line);
      open = true;
    }
  }
  const rows = blocks.filter((line) => line.startsWith("|") && !/^\|[-:| ]+\|$/.test(line));
  return { text: blocks.join("\n"), rows };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether the quote is one table row, or several rows in a row, of the spec, each whole. */
function rowsInSpec(quote: string, rows: readonly string[]): boolean {
  for (let first = 0; first < rows.length; first++) {
    let joined = "";
    for (let last = first; last < rows.length && joined.length < quote.length; last++) {
      joined = joined === "" ? rows[last]! : `${joined} ${rows[last]!}`;
      if (joined === quote) return true;
    }
  }
  return false;
}

/**
 * Whether a quote is in the spec as one passage: table rows standing next to each other, each whole, or whole
 * sentences in a row of one paragraph or list item. Whitespace may differ; nothing may be left out in between.
 */
export function quoteInSpec(quote: string, spec: SpecText): boolean {
  const text = collapseWhitespace(quote);
  if (text.startsWith("|")) return rowsInSpec(text, spec.rows);
  if (!/[.:!?]$/.test(text)) return false;
  return new RegExp(`${SENTENCE_START}${escapeRegExp(text)}${SENTENCE_END}`).test(spec.text);
}

/** Whether the words of a quote can carry a MUST (see the header of suites/requirements.yaml). */
export function carriesMust(quote: string): boolean {
  const text = collapseWhitespace(quote);
  if (NOT_SHOWN.test(text)) return false;
  return text.startsWith("|") || MUST_WORDS.some((word) => word.test(text));
}

/** Everything wrong with the trace of these requirements to the spec, one sentence each; empty when sound. */
export function specTraceProblems(requirements: readonly Requirement[], spec: SpecText): string[] {
  const problems: string[] = [];
  for (const r of requirements) {
    const quotes: [string, string][] = [
      ["spec", r.spec],
      ...(r.carrier === undefined ? [] : [["carrier", r.carrier] as [string, string]]),
    ];
    for (const [field, quote] of quotes) {
      if (!quoteInSpec(quote, spec)) {
        problems.push(
          `${r.id}: its ${field} quote is not one passage of the spec; quote whole sentences in a row exactly (only ` +
            "whitespace may differ), or whole table rows that stand together, from the first | to the last.",
        );
      }
    }
    if (r.carrier !== undefined && !carriesMust(r.carrier)) {
      problems.push(
        `${r.id}: its carrier quote has no "must" or "mandatory"; a carrier is the sentence that makes a MUST.`,
      );
    }
    const levels: [string, Level | undefined][] = [
      ["level", r.level],
      ["definitionLevel", r.definitionLevel],
    ];
    for (const [field, level] of levels) {
      // What the quote leaves "not shown" stays open, whatever a carrier says.
      const carried =
        !NOT_SHOWN.test(r.spec) &&
        (carriesMust(r.spec) || (r.carrier !== undefined && carriesMust(r.carrier)));
      if (level !== "MUST" || carried) continue;
      problems.push(
        NOT_SHOWN.test(r.spec)
          ? `${r.id}: ${field} is MUST but its quote says "not shown", which leaves the matter open; lower the ${field}.`
          : `${r.id}: ${field} is MUST but neither its quote nor a carrier has "must", "mandatory", "Only events ` +
              `whose" or a table row; quote the words that make it MUST or lower the ${field}.`,
      );
    }
  }
  return problems;
}
