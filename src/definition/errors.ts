/** The interface definition could not be read or is not valid OpenAPI 3.1. */
export class DefinitionError extends Error {
  override readonly name = "DefinitionError";
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** A schema URL could be found in no mirror, no cache and not on the network. */
export class SchemaUnavailableError extends Error {
  override readonly name = "SchemaUnavailableError";
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}
