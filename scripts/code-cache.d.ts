export declare function codeCacheDir(root: string): string;
export declare const COVERAGE: { readonly part: number; readonly whole: number };
export declare function codeKey(file: string, recordedHash: string): string;
export interface CachedRun {
  exports: Record<string, unknown>;
  /** Whether V8 was given a cache and took it. */
  used: boolean;
  save(coverage: number): void;
}
export declare function runCached(
  file: string,
  where: { dir: string; name: string; key: string; require?: NodeJS.Require },
): CachedRun;
