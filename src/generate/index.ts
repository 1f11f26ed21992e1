export * from "./dataset.ts";
export * from "./dataset-file.ts";
export * from "./document.ts";
export * from "./fixture.ts";
export * from "./no-match.ts";
export * from "./options.ts";
export * from "./random.ts";
