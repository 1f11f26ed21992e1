export {
  type ContextLoaderOptions,
  ContextUnavailableError,
  createContextLoader,
  type DocumentLoader,
  type FetchedContext,
} from "./loader.ts";
export {
  embedded,
  type JsonLdGraph,
  type JsonLdReading,
  type JsonObject,
  type ReadOptions,
  readJsonLd,
} from "./read.ts";
export { runContextLoader } from "./run-loader.ts";
export {
  canonicalGs1Iri,
  GS1_NAMESPACE,
  GS1_VOCABULARY_NAMESPACES,
  gs1LocalName,
  gs1NamespaceOf,
} from "./vocabulary.ts";
