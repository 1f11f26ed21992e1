// One argument parser for every command: node's parseArgs, with its error turned into a usage sentence.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "../harness/options.ts";

export type Flags = Record<string, string | boolean | string[] | undefined>;
export interface Parsed {
  values: Flags;
  positionals: string[];
}
export type ParseOptions = NonNullable<ParseArgsConfig["options"]>;
export type Parse = (args: string[], options: ParseOptions) => Parsed;

/**
 * Joins a value that looks like an option to the option before it ("--runs -1" becomes "--runs=-1"), so that a
 * negative number is judged as a number by the option's own check instead of read as an unknown flag.
 */
function joinNegativeValues(args: readonly string[], options: ParseOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith("--") && !arg.includes("=") ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export const parse: Parse = (args, options) => {
  try {
    const { values, positionals } = parseArgs({
      args: joinNegativeValues(args, options),
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
    return { values: values as Flags, positionals };
  } catch (err) {
    throw new UsageError(usageSentence(err as Error));
  }
};

// node's messages run to several sentences and lines; the first sentence names the mistake, --help the remedy.
function usageSentence(err: Error): string {
  const first = (err.message.split("\n")[0] ?? "").split(". ")[0]?.replace(/\.$/, "") ?? "";
  return `${first.charAt(0).toLowerCase()}${first.slice(1)}; add --help to the command to see its options.`;
}
