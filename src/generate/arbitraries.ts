// The fast-check arbitraries of datasets and queries, for properties and for the suites that draw queries. Not
// re-exported by index.ts: most runs need none of them, and fast-check takes a while to load.
export * from "./dataset-arbitrary.ts";
export * from "./query-arbitrary.ts";
