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

export const parse: Parse = (args, options) => {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
    return { values: values as Flags, positionals };
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split("\n")[0]}`);
  }
};
