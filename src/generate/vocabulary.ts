// Fixed word lists the generator draws from. Classification values come from the x-std-values lists of
// schemas/interface.openapi.yaml (a test holds them equal); each list also has one value outside the standard
// list, because spec 2.2 says a server must not reject a value merely for being absent from it.

/** Offsets an event may be written in; eventTimeZoneOffset follows the one used ("Z" is written "+00:00"). */
export const TIME_OFFSETS: readonly string[] = [
  "Z",
  "+00:00",
  "+01:00",
  "+05:30",
  "+05:45",
  "+09:00",
  "+12:45",
  "+14:00",
  "-03:00",
  "-05:00",
  "-09:30",
  "-10:00",
];

/** Fractional-second precisions an eventTime is written with. */
export const FRACTION_DIGITS: readonly number[] = [0, 1, 3, 6, 9];

export const LOCATION_CLASSIFICATIONS = {
  vessel: "VESSEL",
  farm: "FARM",
  plant: "PROCESSING_PLANT",
  coldStorage: "COLD_STORAGE",
  warehouse: "WAREHOUSE",
  distributionCenter: "DISTRIBUTION_CENTER",
  retailStore: "RETAIL_STORE",
  /** Outside the standard list on purpose (spec 2.2 extensibility). */
  fishAuction: "FISH_AUCTION",
} as const;

export const PRODUCT_CLASSIFICATIONS = {
  liveFish: "LIVE_FISH",
  freshFish: "FRESH_FISH",
  frozenFish: "FROZEN_FISH",
  fillet: "FISH_FILLET",
  smoked: "SMOKED_FISH",
  canned: "CANNED_FISH",
  crustacean: "CRUSTACEAN",
  mollusc: "MOLLUSC",
  shellfish: "SHELLFISH",
  /** Outside the standard list on purpose (spec 2.2 extensibility). */
  surimi: "SURIMI",
} as const;

/** Classification values the generator writes that the standard lists do not hold. */
export const NON_STANDARD_CLASSIFICATIONS: readonly string[] = [
  LOCATION_CLASSIFICATIONS.fishAuction,
  PRODUCT_CLASSIFICATIONS.surimi,
];

export interface ProductTemplate {
  name: string;
  classification: string;
}

export const WILD_CATCH_PRODUCTS: readonly ProductTemplate[] = [
  { name: "Yellowfin Tuna, whole", classification: PRODUCT_CLASSIFICATIONS.freshFish },
  { name: "Skipjack Tuna, whole", classification: PRODUCT_CLASSIFICATIONS.frozenFish },
  { name: "Albacore, whole", classification: PRODUCT_CLASSIFICATIONS.freshFish },
  { name: "Pacific Cod, whole", classification: PRODUCT_CLASSIFICATIONS.frozenFish },
];

export const INLAND_CATCH_PRODUCTS: readonly ProductTemplate[] = [
  { name: "Nile Perch, whole", classification: PRODUCT_CLASSIFICATIONS.freshFish },
  { name: "Lake Whitefish, whole", classification: PRODUCT_CLASSIFICATIONS.freshFish },
];

export const FARMED_PRODUCTS: readonly ProductTemplate[] = [
  { name: "Atlantic Salmon, whole", classification: PRODUCT_CLASSIFICATIONS.freshFish },
  { name: "Whiteleg Shrimp, head-on", classification: PRODUCT_CLASSIFICATIONS.crustacean },
  { name: "Pacific Oyster, live", classification: PRODUCT_CLASSIFICATIONS.mollusc },
  { name: "Tilapia, live", classification: PRODUCT_CLASSIFICATIONS.liveFish },
];

export const PROCESSED_WILD_PRODUCTS: readonly ProductTemplate[] = [
  { name: "Tuna Loins, frozen", classification: PRODUCT_CLASSIFICATIONS.frozenFish },
  { name: "Tuna in Olive Oil, canned", classification: PRODUCT_CLASSIFICATIONS.canned },
  { name: "Surimi Sticks", classification: PRODUCT_CLASSIFICATIONS.surimi },
];

export const PROCESSED_FARMED_PRODUCTS: readonly ProductTemplate[] = [
  { name: "Salmon Fillets, skin-on", classification: PRODUCT_CLASSIFICATIONS.fillet },
  { name: "Cold-Smoked Salmon", classification: PRODUCT_CLASSIFICATIONS.smoked },
  { name: "Peeled Shrimp, cooked", classification: PRODUCT_CLASSIFICATIONS.shellfish },
];

export const ORGANIZATION_NAMES = {
  processor: ["Harbourline Seafood Processing", "Tidewater Fish Works"],
  fishing: ["Blue Current Fisheries", "North Cape Longliners", "Great Lakes Inland Fishing"],
  farm: ["Fjordside Salmon Farms", "Delta Shrimp Aquaculture", "Coral Bay Oyster Growers"],
  distributor: ["Coldchain Seafood Distribution", "Portside Fish Logistics"],
  retailer: ["Market Square Grocers", "Corner Fishmonger Stores"],
} as const;

export const VESSEL_NAMES: readonly string[] = [
  "Aurora Borealis",
  "Southern Cross",
  "Kaimana",
  "Sea Swallow",
  "Lake Runner",
  "Morning Tide",
];

export const BRAND_NAMES: readonly string[] = [
  "OceanCrest",
  "Tidal Table",
  "Harbour Select",
  "Bluefin Kitchen",
];

/** ISO 3166-1 alpha-2 codes used as vessel flags and countries of origin. */
export const COUNTRY_CODES: readonly string[] = ["US", "JP", "ID", "PH", "EC", "ES", "NO", "NZ", "CL", "KE"];

/** Cities with their ISO 3166-1 alpha-2 country, for postal addresses. */
export const CITIES: readonly { city: string; country: string }[] = [
  { city: "Honolulu", country: "US" },
  { city: "Boston", country: "US" },
  { city: "Yaizu", country: "JP" },
  { city: "Bitung", country: "ID" },
  { city: "General Santos", country: "PH" },
  { city: "Manta", country: "EC" },
  { city: "Vigo", country: "ES" },
  { city: "Bergen", country: "NO" },
  { city: "Nelson", country: "NZ" },
  { city: "Puerto Montt", country: "CL" },
  { city: "Kisumu", country: "KE" },
];

export const STREETS: readonly string[] = [
  "Harbour Road",
  "Pier Street",
  "Wharf Lane",
  "Quay Avenue",
  "Dock Way",
];

/** Catch areas written the way the GDST examples write them (FAO major fishing areas). */
export const MARINE_CATCH_AREAS: readonly string[] = [
  "urn:gdst:fao:27.1",
  "urn:gdst:fao:61",
  "urn:gdst:fao:71",
  "urn:gdst:fao:77",
  "urn:gdst:fao:87",
];

export const INLAND_CATCH_AREAS: readonly string[] = [
  "urn:gdst:fao:01",
  "urn:gdst:fao:02",
  "urn:gdst:fao:04",
];

export const GEAR_TYPES: readonly string[] = [
  "urn:gdst:gear:01.1",
  "urn:gdst:gear:03.1",
  "urn:gdst:gear:09.4",
];

export const AQUACULTURE_METHODS: readonly string[] = [
  "intensive ponds",
  "net pens",
  "recirculating tanks",
  "longline culture",
];

export const BROODSTOCK_SOURCES: readonly string[] = ["domestic", "wild", "hatchery"];

/**
 * Beginnings of lots and serials, all from GS1 CSET 82. Each non-empty one ends in a character that is not a
 * letter or digit, so the running number after it keeps every generated value distinct; most of these
 * characters have to be percent-encoded in a Digital Link, and some in an EPC URN.
 */
export const VALUE_DECORATIONS: readonly string[] = [
  "",
  "",
  "",
  "",
  "LOT-",
  "V1-",
  "B/",
  "A&B-",
  "X+Y_",
  "P%",
  "Q(1)*",
  "R'S!",
  '"T":',
  "<U>=",
  "V?W;",
  "Y,Z.",
];

/** Dispositions a Decommission or Receiving event may carry, where the core-event table leaves it open. */
export const DECOMMISSION_DISPOSITIONS: readonly (string | undefined)[] = [
  undefined,
  "inactive",
  "destroyed",
  "disposed",
];
export const RECEIVING_DISPOSITIONS: readonly (string | undefined)[] = [
  undefined,
  "in_progress",
  "active",
  "sellable_not_accessible",
];
