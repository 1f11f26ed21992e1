// The parts of undici the client uses, each loaded from its own file. undici's index loads every part of it (fetch,
// cookies, WebSocket, mocks, caches) and, through them, Node's own copy of undici: a tenth of a second of every
// run's start-up for nothing the client calls. The client dispatches its requests itself (body.ts), so not even
// undici's request() is loaded.
import AgentClass from "undici/lib/dispatcher/agent.js";

export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;
