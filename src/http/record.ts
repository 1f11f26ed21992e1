// What the client keeps of each exchange, for evidence and for the checks that judge it.

/** One HTTP exchange as recorded for evidence; the X-API-Key value never appears in it. */
export interface ExchangeRecord {
  request: { method: string; url: string; headers: Record<string, string> };
  response?: {
    status: number;
    headers: Record<string, string>;
    bodyExcerpt: string;
    bodyBytes: number;
    truncated: boolean;
    /**
     * The harness stopped reading this body on purpose: the bytes that had arrived already took the answer past
     * what it may hold, so they decide, and the cut does not leave the verdict open as a truncated body would.
     */
    readStopped?: boolean;
  };
  error?: string;
  durationMs: number;
  curl: string;
  /** Set when the key was withheld because the URL left the allowed origins. */
  keyWithheld?: boolean;
}
