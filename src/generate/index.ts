export * from "./dataset.ts";
export * from "./dataset-file.ts";
export * from "./document.ts";
export * from "./fixture.ts";
export * from "./options.ts";
export * from "./query-arbitrary.ts";
export * from "./random.ts";
