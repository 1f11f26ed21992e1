// Paging in the EPCIS 2.0 REST style: a next page is reached through `Link: <…>; rel="next"`, whose URL repeats
// the client's filter and adds an opaque nextPageToken. The store never changes while serving, so an offset into
// the answer is a stable cursor.

export interface PageCursor {
  /** The filter part of the query the token was issued for. */
  filter: string;
  offset: number;
}

export function encodePageToken(c: PageCursor): string {
  return Buffer.from(JSON.stringify({ f: c.filter, o: c.offset }), "utf8").toString("base64url");
}

/** The cursor inside a token, or undefined when the token was not issued by this sender. */
export function decodePageToken(token: string): PageCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { f?: unknown; o?: unknown };
    if (typeof v.f !== "string" || typeof v.o !== "number" || !Number.isInteger(v.o) || v.o < 0)
      return undefined;
    return { filter: v.f, offset: v.o };
  } catch {
    return undefined;
  }
}

/**
 * The URL of a page: the filter as the client wrote it, the page size if the client chose one, the token. With
 * no base it is relative to the page that links to it, which RFC 8288 allows a Link target to be.
 */
export function pageUrl(
  eventsBase: string | undefined,
  filter: string,
  perPage: number | undefined,
  token: string,
): string {
  const parts = [filter, perPage === undefined ? "" : `perPage=${perPage}`, `nextPageToken=${token}`];
  return `${eventsBase === undefined ? "" : `${eventsBase}/`}events?${parts.filter((p) => p !== "").join("&")}`;
}
