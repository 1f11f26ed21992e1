import { REDACTED, redact } from "./redact.ts";

export interface HeaderInput {
  userAgent: string;
  accept: string | undefined;
  headers: Record<string, string> | undefined;
  apiKey: string | undefined;
  withKey: boolean;
  keyHeaderName: string;
  /** Whether the request URL's origin is one the key may go to. */
  originAllowed: boolean;
}

export interface HeaderPlan {
  /** What goes on the wire. */
  send: Record<string, string>;
  /** What the evidence shows: the key header reads "[redacted]" and the key is redacted from every other value. */
  record: Record<string, string>;
  /** The key header carries the key, so a reproduction needs it. */
  keySent: boolean;
  /** The key was meant to go but the origin is not allowed. */
  keyWithheld: boolean;
}

/**
 * Decides the request headers. Names are matched without regard to case and later sources win: defaults, then
 * the caller's headers, then the key. The origin guard also strips a caller's header that carries the key, because
 * caller headers travel with a redirect to another origin.
 */
export function planHeaders(input: HeaderInput): HeaderPlan {
  const byName = new Map<string, [string, string]>();
  const set = (name: string, value: string): void => {
    byName.set(name.toLowerCase(), [name, value]);
  };
  set("User-Agent", input.userAgent);
  if (input.accept !== undefined) set("Accept", input.accept);
  for (const [name, value] of Object.entries(input.headers ?? {})) set(name, value);

  const key = input.apiKey;
  const keyName = input.keyHeaderName.toLowerCase();
  let keyWithheld = false;
  if (!input.originAllowed) {
    for (const [name, [, value]] of byName) {
      // The key header goes to no other origin in any form, a made-up probe key included: no origin outside the
      // exchange has any business with it.
      if ((key !== undefined && value.includes(key)) || name === keyName) {
        byName.delete(name);
        keyWithheld = true;
      }
    }
    if (key !== undefined && input.withKey) keyWithheld = true;
  }
  if (key !== undefined && input.withKey && input.originAllowed) set(input.keyHeaderName, key);

  const keySent = key !== undefined && byName.get(keyName)?.[1] === key;
  const send: Record<string, string> = {};
  const record: Record<string, string> = {};
  for (const [lower, [name, value]] of byName) {
    send[name] = value;
    record[name] = keySent && lower === keyName ? REDACTED : redact(value, key);
  }
  return { send, record, keySent, keyWithheld };
}
