// Types for the parts of undici the client loads by their own files (undici.ts): undici's own index loads all
// of it, fetch, cookies, mocks and caches, and with them Node's second copy of undici, on every start.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";

  /** undici's request(), called on a dispatcher; its url given as origin and path. */
  function requestOn(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default requestOn;
}

declare module "undici/lib/core/errors.js" {
  import type { errors } from "undici";
  export const InvalidArgumentError: typeof errors.InvalidArgumentError;
}
