export declare function codeCacheDir(root: string): string;
export declare function contentKey(source: Uint8Array): string;
export interface CachedRun {
  exports: Record<string, unknown>;
  /** Whether V8 was given a cache and took it. */
  used: boolean;
  /** Keeps the code compiled so far, unless the cache used covered as much (0 to 255); never throws. */
  save(coverage: number): void;
}
export declare function runBundled(root: string, name: "command" | "thread"): CachedRun;
/** The bundle's file `name` and its cache read now, for the flags tagged `tag`, and run by `run()`. */
export declare function readBundled(
  root: string,
  name: "command" | "thread",
  tag?: string,
): { run(): CachedRun };
export declare function bundleCacheName(root: string, name: "command" | "thread", tag?: string): string;
export declare function tagged(name: string, tag?: string): string;
export declare function runCached(
  file: string,
  where: { dir: string; name: string; require?: NodeJS.Require },
): CachedRun;
export declare function writeCache(
  dir: string,
  name: string,
  file: string,
  coverage: number,
  makeData: () => Uint8Array,
): void;
