// Hrefs no client can build, for receiver mode. Spec 4.2 leaves the master data path open ("The fixed path of that
// master data endpoint: not shown. A client must use the href that the link set returns."), and spec 1 has the
// receiver learn the query interface from the resolver. Where the reference serves both at paths a client would
// guess, a client that builds them instead of reading the links is indistinguishable from one that reads them. So
// in receiver mode each session serves its query interface a second time under a random path segment, which the
// epcis links name, and each master data document at a keyed hash of its identifier under that segment.
import { createHmac, randomBytes } from "node:crypto";

export interface OpaqueHrefs {
  /** A path segment, random per session; the epcis links lead to {events base}/{session}/events. */
  readonly session: string;
  /** The token of the master data document about a canonical Digital Link URI. */
  token(uri: string): string;
  /** The path of the master data document about a canonical Digital Link URI, from the resolver's base. */
  masterDataPath(uri: string): string;
}

/** Where master data lives under the session's segment: /{session}/md/{token}. */
export const OPAQUE_MASTER_DATA_SEGMENT = "md";

/** Hrefs of a new session: a fresh segment and a fresh key, so that no two sessions share a path. */
export function opaqueHrefs(): OpaqueHrefs {
  const key = randomBytes(32);
  // A letter first, so that the segment never reads as a numeric application identifier (spec 4.2).
  const session = `s${randomBytes(12).toString("base64url")}`;
  const token = (uri: string) => createHmac("sha256", key).update(uri).digest("base64url").slice(0, 32);
  return {
    session,
    token,
    masterDataPath: (uri) => `/${session}/${OPAQUE_MASTER_DATA_SEGMENT}/${token(uri)}`,
  };
}
