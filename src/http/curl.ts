/** The environment variable a reproduced request reads the key from; the key itself never appears. */
export const KEY_PLACEHOLDER = "$TRACECHECK_API_KEY";

/** Wraps a string in single quotes for a POSIX shell, so that nothing inside it is expanded. */
export function shellQuote(value: string): string {
  return "'" + value.replace(/'/g, "'\\''") + "'";
}

/** Double quotes let the shell expand the placeholder; everything else that the shell would expand is escaped. */
function keyHeaderArgument(headerName: string): string {
  return '"' + headerName.replace(/["\\$`]/g, "\\$&") + ": " + KEY_PLACEHOLDER + '"';
}

/**
 * A curl command line that repeats a request. When the request carried the key, the key header is written with
 * `$TRACECHECK_API_KEY` in place of its value (whatever value `headers` holds for it), so the line works once the
 * variable is set.
 */
export function curlFor(
  method: string,
  url: string,
  headers: Record<string, string>,
  hasKey: boolean,
  keyHeaderName = "X-API-Key",
): string {
  const parts = ["curl", "-sS"];
  if (method.toUpperCase() !== "GET") parts.push("-X", shellQuote(method.toUpperCase()));
  const keyName = keyHeaderName.toLowerCase();
  let keyWritten = false;
  for (const [name, value] of Object.entries(headers)) {
    if (hasKey && name.toLowerCase() === keyName) {
      parts.push("-H", keyHeaderArgument(name));
      keyWritten = true;
    } else {
      parts.push("-H", shellQuote(`${name}: ${value}`));
    }
  }
  if (hasKey && !keyWritten) parts.push("-H", keyHeaderArgument(keyHeaderName));
  parts.push(shellQuote(url));
  return parts.join(" ");
}
