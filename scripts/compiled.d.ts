export declare const SOURCE_FOLDERS: readonly string[];
export interface CompiledPair {
  source: string;
  target: string;
  /** The source's path under the root. */
  relative: string;
}
export declare function mtime(file: string): number | undefined;
export declare function compiledPairs(root: string): CompiledPair[];
export declare function staleSources(root: string, pairs?: CompiledPair[]): CompiledPair[];
export type CodeForm = "bundle" | "compiled" | "sources";
export declare function pathInForm(root: string, form: CodeForm, relative: string): string;
export declare function bundlePaths(root: string): { dir: string; stamp: string };
export declare function sourceNames(root: string, pairs?: CompiledPair[]): string[];
export declare const BUNDLED_PACKAGES: readonly string[];
export declare function bundledVersions(root: string): Record<string, string | null>;
export declare function bundleCurrent(root: string, pairs?: CompiledPair[]): boolean;
export declare function runnable(root: string): CodeForm;
export declare const COMMONJS_BUNDLES: { readonly command: string; readonly thread: string };
export declare const SUITE_LOADERS: string;
export declare const ES_MODULE_IMPORTER: string;
export declare const PASSED_CHECKS: string;
export declare function passedChecks(): number;
export declare function countPassedCheck(): void;
export declare function bundleCode(root: string, name: keyof typeof COMMONJS_BUNDLES): string;
export declare function threadEntry(root: string, form: CodeForm): string;
export declare function bundleBuiltinsFile(root: string): string;
export declare function bundleBuiltins(root: string, name: keyof typeof COMMONJS_BUNDLES): string[];
export declare function loadBuiltins(names: readonly string[]): void;
export declare function isPlainBuiltin(name: string): boolean;
