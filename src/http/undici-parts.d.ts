// Types for the parts of undici the client loads by their own files (undici.ts): undici's own index loads all
// of it, fetch, cookies, mocks and caches, and with them Node's second copy of undici, on every start.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/core/errors.js" {
  import type { errors } from "undici";
  export const InvalidArgumentError: typeof errors.InvalidArgumentError;
  export const RequestAbortedError: typeof errors.RequestAbortedError;
}

declare module "undici/lib/core/util.js" {
  /** undici's reading of a response's raw headers: names in lower case, a repeated header's values a list. */
  export function parseHeaders(
    headers: readonly (Buffer | string | (Buffer | string)[])[],
  ): Record<string, string | string[] | undefined>;
}
