// RES-MASTERDATA-LINK's judgement of the document a masterData link reached: the node of the type the identifier
// calls for is the one judged, wherever the document's graph lists it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MasterDataReadOptions } from "../../src/assertions/master-data.ts";
import { CANONICAL_DL_BASE, gs1CheckDigit } from "../../src/model/index.ts";
import type { ReachedDocument } from "../../src/target/documents.ts";
import { createContextLoader } from "../../src/target/jsonld/index.ts";
import { reachedDocumentProblem } from "../../suites/resolver/support/documents.ts";

const withCheck = (body: string) => body + gs1CheckDigit(body);
const PARTY = `${CANONICAL_DL_BASE}/417/${withCheck("950600099999")}`;
const OTHER_PARTY = `${CANONICAL_DL_BASE}/417/${withCheck("950600088888")}`;
const PLACE = `${CANONICAL_DL_BASE}/414/${withCheck("950600011111")}`;
const CONTEXT = { "@vocab": "https://gs1.org/voc/", gs1: "https://gs1.org/voc/" };

let cacheDir: string;
let read: MasterDataReadOptions;

beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), "tracecheck-reached-"));
  // Every context here is inline: a fetch would be a mistake of the test.
  const loader = createContextLoader({
    cacheDir,
    fetchContext: async (url) => {
      throw new Error(`no context is fetched in this test (${url})`);
    },
  });
  read = { loader, base: "http://127.0.0.1:1/masterdata" };
});

afterAll(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

function reached(doc: unknown): ReachedDocument {
  return {
    form: "417",
    uri: PARTY,
    href: `http://127.0.0.1:1/masterdata/417`,
    expected: "gs1:Organization",
    aboutIdentifier: true,
    doc,
  };
}

/** An organization's document that also describes its place, listed before it. */
function organizationWithPlace(organization: string): unknown {
  return {
    "@context": CONTEXT,
    "@graph": [
      { "@type": "Place", "@id": PLACE, name: "Quay" },
      {
        "@type": "Organization",
        "@id": organization,
        organizationName: "Sender Fisheries",
        location: { "@id": PLACE },
      },
    ],
  };
}

describe("the document a masterData link reached", () => {
  it("passes an organization's document that lists its place before it", async () => {
    expect(await reachedDocumentProblem(reached(organizationWithPlace(PARTY)), read)).toBeUndefined();
  });

  it("fails the organization node named as another party, wherever it is listed", async () => {
    expect(await reachedDocumentProblem(reached(organizationWithPlace(OTHER_PARTY)), read)).toMatchObject({
      message: `the document describes ${OTHER_PARTY}, not the identifier asked about`,
      expected: PARTY,
      actual: OTHER_PARTY,
    });
  });

  it("fails a document with no node of the type asked for, and one that was not read", async () => {
    const place = { "@context": CONTEXT, "@type": "Place", "@id": PLACE, name: "Quay" };
    expect(await reachedDocumentProblem(reached(place), read)).toMatchObject({
      expected: "gs1:Organization",
    });
    const missing: ReachedDocument = { ...reached(undefined), problem: "it answered 404" };
    expect(await reachedDocumentProblem(missing, read)).toEqual({
      message: "it answered 404",
      expected: "gs1:Organization",
    });
  });
});
