/**
 * How long a Retry-After header asks the client to wait, in milliseconds (RFC 9110 10.2.3: delay-seconds or an
 * HTTP-date). A date in the past means no wait; a value that is neither form gives undefined.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
