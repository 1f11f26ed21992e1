import { readFile } from "node:fs/promises";

/**
 * The accepted keys: those given on the command line, TRACECHECK_API_KEY, and the lines of a keys file
 * (blank lines and lines starting with # skipped). Spec 5.5: the sender alone manages its keys.
 */
export async function loadKeys(opts: {
  keys?: string[];
  env?: NodeJS.ProcessEnv;
  keysFile?: string;
}): Promise<string[]> {
  const found: string[] = [...(opts.keys ?? [])];
  const fromEnv = (opts.env ?? process.env).TRACECHECK_API_KEY;
  if (fromEnv !== undefined) found.push(fromEnv);
  if (opts.keysFile !== undefined) {
    let text: string;
    try {
      text = await readFile(opts.keysFile, "utf8");
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `Cannot read the keys file ${opts.keysFile} (${reason}); check the path or pass keys another way.`,
      );
    }
    for (const line of text.split(/\r?\n/)) {
      if (!line.trim().startsWith("#")) found.push(line);
    }
  }
  return [...new Set(found.map((k) => k.trim()).filter((k) => k !== ""))];
}
