/** The interface definition could not be read or is not valid OpenAPI 3.1. */
export class DefinitionError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = "DefinitionError";
    this.file = file;
  }
}

/** A schema URL could be found in no mirror, no cache and not on the network. */
export class SchemaUnavailableError extends Error {
  readonly url: string;
  constructor(url: string, message: string) {
    super(message);
    this.name = "SchemaUnavailableError";
    this.url = url;
  }
}
