export declare const SOURCE_FOLDERS: readonly string[];
export interface CompiledPair {
  source: string;
  target: string;
}
export declare function mtime(file: string): number | undefined;
export declare function compiledPairs(root: string): CompiledPair[];
export declare function staleSources(root: string): CompiledPair[];
