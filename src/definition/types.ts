// What the rest of tracecheck reads from an interface definition.

export type MasterDataTypeName = "gs1:Organization" | "gs1:Place" | "gs1:Product";

export const MASTER_DATA_TYPES: readonly MasterDataTypeName[] = [
  "gs1:Organization",
  "gs1:Place",
  "gs1:Product",
];

/** A JSON object as parsed from YAML or JSON. */
export type JsonObject = Record<string, unknown>;

/** A query parameter of GET /events (spec 4.1). `style` and `explode` come from x-style / x-explode. */
export interface QueryParameterInfo {
  name: string;
  kind: "time" | "list";
  style?: string;
  explode?: boolean;
  description: string;
}

/** One entry of x-std-core-events (spec 6); null means "none" for action and "not fixed" for disposition. */
export interface CoreEventSignature {
  name: string;
  eventType: string;
  action: string | null;
  bizStep: string;
  disposition: string | null;
}

export interface MasterDataProperty {
  name: string;
  kdeName: string | undefined;
  stdValues?: string[];
  isEnum: boolean;
  schema: JsonObject;
}

export interface MasterDataTypeInfo {
  type: MasterDataTypeName;
  schemaName: string;
  properties: MasterDataProperty[];
  /** The schema on its own (components as $defs), ready to compile with a JSON Schema 2020-12 validator. */
  jsonSchema: JsonObject;
}

/** A resolver path of spec 4.2, e.g. /01/{gtin}/10/{lot} with ais ["01", "10"]. */
export interface ResolverPath {
  template: string;
  ais: string[];
  linkTypes: string[];
}

export interface ModuleInfo {
  name: string;
  /** Absolute path of the module's JSON Schema. */
  schemaFile: string;
}

export interface Definition {
  file: string;
  raw: JsonObject;
  queryParameters: QueryParameterInfo[];
  coreEvents: CoreEventSignature[];
  masterDataTypes: MasterDataTypeInfo[];
  resolverPaths: ResolverPath[];
  modules: ModuleInfo[];
  /** The link-set schema of the resolver responses, standalone (components as $defs), JSON Schema 2020-12. */
  linksetSchema: JsonObject;
  /** The URL the 200 response of GET /events references for its body, when it references one. */
  epcisSchemaUrl: string | undefined;
}

export type ExtensionFamily = "core-events" | "kde-name" | "std-values" | "style-explode";

export interface ExtensionProblem {
  family: ExtensionFamily;
  /** JSON pointer into the definition where the problem lies. */
  path: string;
  message: string;
}
