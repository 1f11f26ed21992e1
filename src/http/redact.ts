export const REDACTED = "[redacted]";

/**
 * The spellings under which a key can come back from a server: as sent, percent-encoded in a URL (either hex
 * case, spaces as `+` in a form query) and escaped inside a JSON string. Longest first, so that a spelling
 * containing another is replaced whole.
 */
function secretForms(secret: string): readonly string[] {
  let forms = formsOf.get(secret);
  if (forms === undefined) {
    forms = spellings(secret);
    // A run has a key or two; every excerpt of every exchange asks for their spellings.
    if (formsOf.size >= 16) formsOf.clear();
    formsOf.set(secret, forms);
  }
  return forms;
}

const formsOf = new Map<string, readonly string[]>();

function spellings(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const forms = new Set([
    secret,
    encoded,
    encoded.replace(/%20/g, "+"),
    encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    encodeURIComponent(encoded),
    JSON.stringify(secret).slice(1, -1),
    ...urlForms(secret),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** How a URL parser writes the secret when it stands in a query or a path: it escapes fewer characters. */
function urlForms(secret: string): string[] {
  const forms: string[] = [];
  try {
    forms.push(
      new URL(`http://h/?${secret}`).search.slice(1),
      new URL(`http://h/${secret}`).pathname.slice(1),
    );
  } catch {
    // A secret no URL can hold has no URL spelling.
  }
  // A secret holding "#" or "?" is cut short by the parse: only a whole spelling of it counts.
  return forms.filter((form) => decodeLoosely(form) === secret);
}

/** Replaces every occurrence of the secret in the text with "[redacted]"; an absent or empty secret changes nothing. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  let out = text;
  // Most texts hold no spelling of the key: looking costs far less than splitting and joining.
  for (const form of secretForms(secret)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** What an excerpt reads past its end so that a spelling of the key across the cut is redacted whole. */
function marginOf(secret: string | undefined): number {
  // The spellings come longest first.
  return secret ? (secretForms(secret)[0]?.length ?? 0) : 0;
}

/**
 * The first `maxChars` characters of the text with the secret redacted. The cut is made after redacting a
 * slightly longer prefix, so that a key straddling the cut cannot leave a fragment behind. The excerpt is a
 * copy: a slice of a string keeps the whole string alive in V8, and an excerpt outlives its body in the
 * evidence and the client's log (a log of 16 MiB bodies held gigabytes).
 */
export function redactedExcerpt(text: string, secret: string | undefined, maxChars: number): string {
  const margin = marginOf(secret);
  const excerpt = redact(text.slice(0, maxChars + margin), secret).slice(0, maxChars);
  // UTF-16 code units round-trip exactly, a lone surrogate included.
  return Buffer.from(excerpt, "utf16le").toString("utf16le");
}

/**
 * redactedExcerpt of a body as UTF-8, decoding only the bytes the excerpt can come from: a UTF-16 unit takes at
 * most three bytes, so the excerpt and the margin its redaction needs lie within three bytes per character. A
 * body of megabytes is not decoded whole for the two thousand characters its evidence shows.
 */
export function redactedBodyExcerpt(body: Buffer, secret: string | undefined, maxChars: number): string {
  return redactedExcerpt(
    body.subarray(0, excerptSourceBytes(secret, maxChars)).toString("utf8"),
    secret,
    maxChars,
  );
}

/** How many of a body's first bytes its excerpt of `maxChars` characters is made from, whatever they encode. */
export function excerptSourceBytes(secret: string | undefined, maxChars: number): number {
  // A character is at most three bytes of UTF-8 in one UTF-16 code unit (four bytes make two).
  return 3 * (maxChars + marginOf(secret) + 1);
}

/** Percent-decodes what can be decoded, leaving a malformed escape as it is. */
function decodeLoosely(text: string): string {
  return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Whether a URL carries the secret anywhere, in its path, query, user info or fragment, in any spelling a server
 * would read back as the secret: as written, percent-encoded in either hex case or more than once, or with `+`
 * for a space in a form query.
 */
export function carriesSecret(url: string, secret: string | undefined): boolean {
  if (!secret) return false;
  let readings = new Set([url]);
  for (let round = 0; round < 4 && readings.size > 0; round++) {
    const next = new Set<string>();
    for (const text of readings) {
      if (text.includes(secret)) return true;
      for (const decoded of [decodeLoosely(text), decodeLoosely(text.replace(/\+/g, " "))]) {
        if (decoded !== text) next.add(decoded);
      }
    }
    readings = next;
  }
  return [...readings].some((text) => text.includes(secret));
}
