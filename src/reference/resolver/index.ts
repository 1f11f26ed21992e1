export { type Catalogue, catalogueOf } from "./catalogue.ts";
export { RESOLVER_FAULTS } from "./faults.ts";
export {
  LINK_TYPE_NAMES,
  type LinkTypeName,
  linkTypeOf,
  linkTypeSpellings,
  linkTypeUri,
} from "./link-types.ts";
export { LINKSET_MEDIA_TYPE, registerResolver } from "./route.ts";
