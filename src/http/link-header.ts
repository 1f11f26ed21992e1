/** One link of a Link header (RFC 8288 section 3). */
export interface LinkValue {
  /** The target as written between < and >, not resolved. */
  url: string;
  /** Relation types, split on whitespace; registered names are lower-cased, extension URIs kept as written. */
  rel: string[];
  /** Every other parameter by lower-cased name, unquoted; a parameter without a value maps to "". */
  params: Record<string, string>;
}

const WHITESPACE = new Set([" ", "\t"]);

/** A small cursor over the header value: every parse step moves it forward. */
class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.pos];
  }

  skipWhitespace(): void {
    while (!this.done && WHITESPACE.has(this.text[this.pos]!)) this.pos++;
  }

  /** Reads up to (not including) the first character of `stops`, or to the end. */
  readUntil(stops: string): string {
    const start = this.pos;
    while (!this.done && !stops.includes(this.text[this.pos]!)) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Reads a quoted-string whose opening quote is at the cursor; a backslash escapes the next character. */
  readQuoted(): string {
    this.pos++;
    let out = "";
    while (!this.done) {
      const ch = this.text[this.pos++]!;
      if (ch === '"') return out;
      if (ch === "\\" && !this.done) out += this.text[this.pos++]!;
      else out += ch;
    }
    return out;
  }

  /** Moves past the rest of a malformed link, honouring quoted strings, to the comma that ends it. */
  skipLink(): void {
    while (!this.done && this.peek() !== ",") {
      if (this.peek() === '"') this.readQuoted();
      else this.pos++;
    }
  }
}

function readParam(scanner: Scanner): [string, string] {
  const name = scanner.readUntil("=;, \t").toLowerCase();
  scanner.skipWhitespace();
  if (scanner.peek() !== "=") return [name, ""];
  scanner.pos++;
  scanner.skipWhitespace();
  const value = scanner.peek() === '"' ? scanner.readQuoted() : scanner.readUntil(";, \t");
  return [name, value];
}

function relationTypes(value: string): string[] {
  return value
    .split(/[ \t]+/)
    .filter((rel) => rel !== "")
    .map((rel) => (rel.includes(":") ? rel : rel.toLowerCase()));
}

/**
 * Parses a Link header field value into its links, in order. Commas inside <…> or quoted strings do not split
 * links; a link that does not start with <…> is skipped; only the first rel of a link counts (RFC 8288 3.3).
 */
export function parseLinkHeader(value: string): LinkValue[] {
  const scanner = new Scanner(value);
  const links: LinkValue[] = [];
  while (!scanner.done) {
    scanner.skipWhitespace();
    if (scanner.peek() === ",") {
      scanner.pos++;
      continue;
    }
    if (scanner.peek() !== "<") {
      scanner.skipLink();
      continue;
    }
    scanner.pos++;
    const url = scanner.readUntil(">").trim();
    if (scanner.done) break;
    scanner.pos++;
    let rel: string[] | undefined;
    // A Map, because parameter names come from the server and "__proto__" must stay an ordinary name.
    const params = new Map<string, string>();
    for (;;) {
      scanner.skipWhitespace();
      if (scanner.peek() !== ";") break;
      scanner.pos++;
      scanner.skipWhitespace();
      const [name, paramValue] = readParam(scanner);
      if (name === "") continue;
      if (name === "rel") rel ??= relationTypes(paramValue);
      else if (!params.has(name)) params.set(name, paramValue);
    }
    links.push({ url, rel: rel ?? [], params: Object.fromEntries(params) });
    scanner.skipLink();
  }
  return links;
}
