// Instance/lot master data of a commissioned or transformed lot, as the commodity modules require it
// (schemas/modules/: seafood, wildcatch, aquaculture). Member names follow the GDST event examples.
import type { Harvester, Site } from "./catalogue.ts";
import type { Random } from "./random.ts";
import { BROODSTOCK_SOURCES } from "./vocabulary.ts";

/** What a lot inherits from its harvest, drawn once per chain. */
export interface HarvestFacts {
  method: Harvester["method"];
  country: string;
  vessel?: {
    vesselName: string;
    vesselID: string;
    imoNumber?: string;
    flag: string;
    catchArea: string;
    gear: string;
  };
  aquacultureMethod?: string;
  broodstockSource?: string;
}

export function harvestFacts(rng: Random, harvester: Harvester, site: Site): HarvestFacts {
  const facts: HarvestFacts = { method: harvester.method, country: harvester.country };
  const v = site.vessel;
  if (v !== undefined) {
    facts.vessel = {
      vesselName: v.vesselName,
      vesselID: v.vesselID,
      // Inland boats carry no IMO number.
      ...(harvester.method === "MARINE_FISHERY" ? { imoNumber: v.imoNumber } : {}),
      flag: v.flag,
      catchArea: rng.pick(v.catchAreas),
      gear: v.gear,
    };
  }
  if (harvester.aquacultureMethod !== undefined) {
    facts.aquacultureMethod = harvester.aquacultureMethod;
    facts.broodstockSource = rng.pick(BROODSTOCK_SOURCES);
  }
  return facts;
}

/** A fresh ilmd object for one lot (never shared between events, so that one can be changed alone). */
export function lotIlmd(facts: HarvestFacts, lot: string): Record<string, unknown> {
  const ilmd: Record<string, unknown> = {
    "cbvmda:lotNumber": lot,
    "cbvmda:productionMethodForFishAndSeafoodCode": facts.method,
    "cbvmda:countryOfOrigin": facts.country,
  };
  const v = facts.vessel;
  if (v !== undefined) {
    ilmd["cbvmda:vesselCatchInformationList"] = {
      "cbvmda:vesselCatchInformation": [
        {
          "cbvmda:vesselName": v.vesselName,
          "cbvmda:vesselID": v.vesselID,
          ...(v.imoNumber === undefined ? {} : { "gdst:imoNumber": v.imoNumber }),
          "cbvmda:vesselFlagState": v.flag,
          "cbvmda:catchArea": v.catchArea,
          "cbvmda:fishingGearTypeCode": v.gear,
        },
      ],
    };
  }
  if (facts.aquacultureMethod !== undefined) ilmd["gdst:aquacultureMethod"] = facts.aquacultureMethod;
  if (facts.broodstockSource !== undefined) ilmd["gdst:broodstockSource"] = facts.broodstockSource;
  return ilmd;
}
