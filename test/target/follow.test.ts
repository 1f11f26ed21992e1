import { describe, expect, it } from "vitest";
import type { ExchangeRecord } from "../../src/http/record.ts";
import { withheldHint } from "../../src/target/follow.ts";

const exchange = (url: string, keyWithheld?: boolean): ExchangeRecord => ({
  request: { method: "GET", url, headers: {} },
  durationMs: 1,
  curl: "",
  ...(keyWithheld === undefined ? {} : { keyWithheld }),
});

describe("withheldHint: why a refusal may be the harness's doing", () => {
  it("names the origin the key was withheld from when it refused with 401 or 403", () => {
    for (const status of [401, 403]) {
      expect(withheldHint(exchange("http://other.example:8080/events?x=1", true), status)).toBe(
        "the key was withheld because http://other.example:8080 is not an origin of the target: allow it with --allow-origin",
      );
    }
  });

  it("says nothing where the key was sent, or the refusal is of another kind", () => {
    expect(withheldHint(exchange("http://other.example/events"), 401)).toBeUndefined();
    expect(withheldHint(exchange("http://other.example/events", false), 403)).toBeUndefined();
    expect(withheldHint(exchange("http://other.example/events", true), 404)).toBeUndefined();
    expect(withheldHint(exchange("http://other.example/events", true), undefined)).toBeUndefined();
  });
});
