export { checkExtensions } from "./check-extensions.ts";
export { CORE_EVENTS, canonicalDisposition } from "./core-events.ts";
export { CORE_EVENTS_EXTENSION, type FoundCoreEvents, findCoreEvents } from "./declared-core-events.ts";
export { DefinitionError, SchemaUnavailableError } from "./errors.ts";
export { type LoadOptions, loadDefinition, openApiProblem } from "./load-definition.ts";
export {
  DEFAULT_DEFINITION_FILE,
  DEFAULT_SCHEMA_CACHE,
  DEFAULT_SIBLING_MIRROR,
  EPCIS_SCHEMA_URL,
  REPO_ROOT,
} from "./locations.ts";
export { readDefinition } from "./read-definition.ts";
export {
  assertSchemaAvailable,
  mirrorPath,
  type ResolvedSchema,
  type ResolveOptions,
  resolveSchema,
  type SchemaSource,
} from "./resolve-schema.ts";
export { standaloneSchema } from "./standalone-schema.ts";
export * from "./types.ts";
export {
  createValidators,
  ownSchemaValidatorsOf,
  type ValidationResult,
  type ValidatorOptions,
  type Validators,
} from "./validators.ts";
