// The excerpt of a body an exchange keeps is taken from as many bytes as it can come from, not from the whole body
// decoded: it must be the excerpt of the whole body, whatever the body's characters, its invalid bytes and the key.
import fc from "fast-check";
import { expect, test } from "vitest";
import { REDACTED, redactedBodyExcerpt, redactedExcerpt } from "../../src/http/redact.ts";

/** Text of every width in UTF-8: ASCII, two- and three-byte characters, and pairs of four. */
const wideText = fc.string({ unit: "grapheme", maxLength: 400 });

test("is the excerpt of the whole body decoded, for any text, stray bytes, key and length", () => {
  fc.assert(
    fc.property(
      wideText,
      fc.uint8Array({ maxLength: 40 }),
      wideText,
      fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
      fc.integer({ min: 0, max: 300 }),
      (before, stray, after, key, chars) => {
        const body = Buffer.concat([
          Buffer.from(before),
          Buffer.from(stray),
          Buffer.from(key ?? ""),
          Buffer.from(after),
        ]);
        expect(redactedBodyExcerpt(body, key, chars)).toBe(
          redactedExcerpt(body.toString("utf8"), key, chars),
        );
      },
    ),
    { numRuns: 800 },
  );
});

test("redacts a key that straddles the excerpt's end, in a body far longer than the excerpt", () => {
  const key = "k€y-ünïcode-𝄞-0123";
  const body = Buffer.from(`${"é".repeat(95)}${key}${"x".repeat(100_000)}`);
  const excerpt = redactedBodyExcerpt(body, key, 100);
  expect(excerpt).toBe(`${"é".repeat(95)}${REDACTED}`.slice(0, 100));
  expect(excerpt).not.toContain("k€y");
});
