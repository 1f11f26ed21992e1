export { GS1_VOC_CONTEXT } from "./context.ts";
export { MASTERDATA_FAULTS } from "./faults.ts";
export { MASTER_DATA_PREFIX, registerMasterData } from "./route.ts";
export { variantDocument } from "./variant.ts";
