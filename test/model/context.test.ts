// The context and extension prefixes the project writes, against the published EPCIS 2.0 context: a prefix that
// the context protects must be declared with the context's own IRI, or a document using it is not JSON-LD.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EPCIS_CONTEXT_URL, EXTENSION_PREFIXES } from "../../src/model/types.ts";
import { sharedPath } from "./paths.ts";

const published = JSON.parse(
  readFileSync(sharedPath("epcis/mirror/ref.gs1.org/standards/epcis/epcis-context.jsonld"), "utf8"),
) as { "@context": Record<string, unknown> };

describe("EPCIS_CONTEXT_URL and EXTENSION_PREFIXES", () => {
  it("name the published context, whose mirror lies at that URL's path", () => {
    expect(EPCIS_CONTEXT_URL).toBe("https://ref.gs1.org/standards/epcis/epcis-context.jsonld");
  });

  it("declare every prefix the published context also defines with the context's own IRI", () => {
    const shared = Object.keys(EXTENSION_PREFIXES).filter((p) => p in published["@context"]);
    expect(shared).toContain("cbvmda");
    for (const prefix of shared) {
      expect(EXTENSION_PREFIXES[prefix as keyof typeof EXTENSION_PREFIXES], prefix).toBe(
        published["@context"][prefix],
      );
    }
  });

  it("write the GDST prefix as GDST's own example events do", () => {
    expect(EXTENSION_PREFIXES.gdst).toBe("https://traceability-dialogue.org/epcis");
  });
});
