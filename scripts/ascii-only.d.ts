/** Writes the file's characters outside ASCII as escapes where its code stays the same; whether it is ASCII now. */
export declare function asciiOnly(esbuild: typeof import("esbuild"), file: string): Promise<boolean>;
