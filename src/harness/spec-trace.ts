// The trace from each requirement to the spec's own words: its `spec` quote must be found in the spec, and a MUST
// must rest on words that carry it (spec 1: "Everything described here is mandatory for a conforming solution.";
// what the spec marks "not shown" is left open, so it never backs a MUST). The quoting convention is the one the
// header of suites/requirements.yaml describes.
import type { Level, Requirement } from "./types.ts";

/** Joins the pieces of a quote that leaves words out between them. */
export const ELISION = " … ";

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

/** The pieces of a quote, each whitespace-collapsed. */
export function quotePieces(quote: string): string[] {
  return collapseWhitespace(quote)
    .split(ELISION.trim())
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "");
}

/**
 * The spec as the matcher reads it: one line per paragraph, list item, heading or table row, whitespace-collapsed
 * (a hard-wrapped paragraph is joined back into one line), and the set of its table rows.
 */
export interface SpecText {
  text: string;
  rows: ReadonlySet<string>;
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
  const rows = new Set(blocks.filter((line) => line.startsWith("|") && !/^\|[-:| ]+\|$/.test(line)));
  return { text: blocks.join("\n"), rows };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether one piece of a quote is in the spec: a table row equal to a whole row of the file, or whole sentences
 * (one or more, in a row) of one paragraph or list item. Whitespace may differ.
 */
export function pieceInSpec(piece: string, spec: SpecText): boolean {
  if (piece.startsWith("|")) return spec.rows.has(piece);
  if (!/[.:!?]$/.test(piece)) return false;
  return new RegExp(`${SENTENCE_START}${escapeRegExp(piece)}${SENTENCE_END}`).test(spec.text);
}

/** Whether the words of a quote can carry a MUST (see the header of suites/requirements.yaml). */
export function carriesMust(quote: string): boolean {
  const pieces = quotePieces(quote);
  if (pieces.some((piece) => NOT_SHOWN.test(piece))) return false;
  return pieces.some((piece) => piece.startsWith("|") || MUST_WORDS.some((word) => word.test(piece)));
}

/** Everything wrong with the trace of these requirements to the spec, one sentence each; empty when sound. */
export function specTraceProblems(requirements: readonly Requirement[], spec: SpecText): string[] {
  const problems: string[] = [];
  for (const r of requirements) {
    for (const piece of quotePieces(r.spec)) {
      if (!pieceInSpec(piece, spec)) {
        problems.push(
          `${r.id}: "${piece}" is not a sentence or table row of the spec; quote whole sentences exactly (only ` +
            "whitespace may differ) or a table row whole, from its first | to its last.",
        );
      }
    }
    const levels: [string, Level | undefined][] = [
      ["level", r.level],
      ["definitionLevel", r.definitionLevel],
    ];
    for (const [field, level] of levels) {
      if (level !== "MUST" || carriesMust(r.spec)) continue;
      problems.push(
        NOT_SHOWN.test(r.spec)
          ? `${r.id}: ${field} is MUST but its quote says "not shown", which leaves the matter open; lower the ${field}.`
          : `${r.id}: ${field} is MUST but its quote has no "must", "mandatory", "Only events whose" or table row; ` +
              `quote the words that make it MUST or lower the ${field}.`,
      );
    }
  }
  return problems;
}
