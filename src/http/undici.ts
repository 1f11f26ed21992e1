// The parts of undici the client uses, each loaded from its own file. undici's index loads every part of it (fetch,
// cookies, WebSocket, mocks, caches) and, through them, Node's own copy of undici: a tenth of a second of every
// run's start-up for nothing the client calls.
import type { Dispatcher } from "undici";
import requestOn from "undici/lib/api/api-request.js";
import { InvalidArgumentError } from "undici/lib/core/errors.js";
import AgentClass from "undici/lib/dispatcher/agent.js";

export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;

/**
 * undici's request(url, options) with options.dispatcher, as its index defines it for a URL: sent to the dispatcher
 * as origin and path, a scheme other than http and https refused with undici's own error.
 */
export function request(
  url: URL,
  options: Omit<Dispatcher.RequestOptions, "origin" | "path"> & { dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError("Invalid URL protocol: the URL must start with `http:` or `https:`.");
  }
  return requestOn.call(dispatcher, {
    ...rest,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
