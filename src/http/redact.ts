export const REDACTED = "[redacted]";

/**
 * The spellings under which a key can come back from a server: as sent, percent-encoded in a URL (either hex
 * case, spaces as `+` in a form query) and escaped inside a JSON string. Longest first, so that a spelling
 * containing another is replaced whole.
 */
function secretForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const forms = new Set([
    secret,
    encoded,
    encoded.replace(/%20/g, "+"),
    encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    JSON.stringify(secret).slice(1, -1),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of the secret in the text with "[redacted]"; an absent or empty secret changes nothing. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  let out = text;
  for (const form of secretForms(secret)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * The first `maxChars` characters of the text with the secret redacted. The cut is made after redacting a
 * slightly longer prefix, so that a key straddling the cut cannot leave a fragment behind.
 */
export function redactedExcerpt(text: string, secret: string | undefined, maxChars: number): string {
  const margin = secret ? Math.max(...secretForms(secret).map((form) => form.length)) : 0;
  return redact(text.slice(0, maxChars + margin), secret).slice(0, maxChars);
}
