// The run's context loader: the mirror the run was given (--schema-mirror), then the cache and the sibling
// mirror, then the network through the harness's own client, so that a context fetch keeps to the run's
// timeout, body limit, concurrency and rate, and shows in the evidence like any other exchange. The loader is
// the run's, shared by its checks.

import type { RunContext } from "../../engine/context.ts";
import { perRun } from "../../engine/run-scope.ts";
import { targetClient } from "../client.ts";
import { createContextLoader, type DocumentLoader } from "./loader.ts";

/** One loader per run, so a remote context is fetched once per run, not once per document. */
export const runContextLoader = perRun(
  (ctx: RunContext): DocumentLoader =>
    createContextLoader({
      ...(ctx.schemaMirror === undefined ? {} : { mirror: ctx.schemaMirror }),
      fetchContext: async (url) => {
        // A context is a public artefact: the key never goes with it, whichever origin serves it (spec 5: the key
        // is for the sender's query interface). The client still refuses a URL that itself carries the key.
        const result = await targetClient(ctx).get(url, {
          withKey: false,
          redirect: "follow",
          accept: "application/ld+json, application/json;q=0.9",
        });
        if (result.status < 200 || result.status > 299) throw new Error(`it answered ${result.status}`);
        return { document: result.json(), url: result.url };
      },
    }),
);
