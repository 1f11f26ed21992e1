export declare const ROOT: string;
export declare const SOURCE_FOLDERS: readonly string[];
export declare const BUNDLED_PACKAGES: readonly string[];
export type CodeForm = "bundle" | "sources";
export declare function bundlePaths(root: string): { dir: string; stamp: string };
export declare function sourceFiles(root: string): string[];
export declare function stampOf(
  root: string,
  sources?: readonly string[],
): { sources: string[]; packages: Record<string, string | null> };
export declare function bundleCurrent(root: string): boolean;
export declare function currentForm(root: string): CodeForm;
export declare function entryOf(
  root: string,
  relative: string,
  form?: CodeForm,
): { file: string; execArgv: string[] };
