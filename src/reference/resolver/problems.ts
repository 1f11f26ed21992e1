// Problem types of the resolver and master data endpoints. The spec leaves their status codes and bodies
// open (spec 4.2); these follow RFC 7807 like every other refusal of the reference sender.

export const INVALID_DIGITAL_LINK = "urn:tracecheck:problem:invalid-digital-link";
export const UNKNOWN_IDENTIFIER = "urn:tracecheck:problem:unknown-identifier";
export const UNKNOWN_LINK_TYPE = "urn:tracecheck:problem:unknown-link-type";
