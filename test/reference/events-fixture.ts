// A small hand-built dataset for the GET /events tests: every field a parameter reads, both identifier forms,
// bizSteps stored bare and as Web URIs (the published schema refuses the URN form inside an event, so that form
// is only ever a query value), several offsets and precisions, and the module KDEs the content faults remove.
import type { Dataset, EpcisEvent } from "../../src/model/index.ts";
import { epcUrnToDigitalLink } from "../../src/model/index.ts";

function dl(urn: string): string {
  const link = epcUrnToDigitalLink(urn);
  if (link === undefined) throw new Error(`fixture identifier ${urn} has no Digital Link form`);
  return link;
}

export const IDS = {
  itemA1: "urn:epc:id:sgtin:0614141.812345.A1",
  itemA2: "urn:epc:id:sgtin:0614141.812345.A2",
  itemB1: "urn:epc:id:sgtin:0614141.712346.B1",
  pallet: "urn:epc:id:sscc:0614141.1234567890",
  lot1: "urn:epc:class:lgtin:0614141.812345.LOT1",
  lot2: "urn:epc:class:lgtin:0614141.812345.LOT2",
  lot3: "urn:epc:class:lgtin:0614141.712346.LOT3",
  gtinPattern: "urn:epc:idpat:sgtin:0614141.812345.*",
  companyPattern: "urn:epc:idpat:sgtin:0614141.*.*",
  vessel: "urn:epc:id:sgln:0614141.00001.0",
  plant: "urn:epc:id:sgln:0614141.00002.0",
  owner: "urn:epc:id:pgln:0614141.00000",
  transformation: "urn:uuid:6f1b8a7e-0c43-4c1e-9b7a-2f0a6d9e1c55",
  /** Needs percent-encoding on the wire, and contains an encoded "%" that a second decoding would alter. */
  oddTransformation: "urn:example:batch%2541/b&c+d",
  /** An identifier the model cannot canonicalise: it is stored and served as written. */
  opaqueEpc: "urn:gdst:example.org:product:lot:class:odd.1",
} as const;

export const DL = {
  itemA1: dl(IDS.itemA1),
  itemA2: dl(IDS.itemA2),
  itemB1: dl(IDS.itemB1),
  pallet: dl(IDS.pallet),
  lot1: dl(IDS.lot1),
  vessel: dl(IDS.vessel),
  plant: dl(IDS.plant),
} as const;

/** recordTimes start here; batches of three events share one, 250 µs apart. */
export const LOAD_START = "2024-06-01T00:00:00Z";

const common = {
  "gdst:productOwner": IDS.owner,
  "cbvmda:informationProvider": IDS.owner,
};

const wildCatchIlmd = {
  "cbvmda:lotNumber": "LOT1",
  "cbvmda:productionMethodForFishAndSeafoodCode": "MARINE_FISHERY",
  "cbvmda:vesselCatchInformationList": {
    "cbvmda:vesselCatchInformation": [
      {
        "cbvmda:vesselName": "Aurora",
        "cbvmda:vesselFlagState": "US",
        "cbvmda:catchArea": "67",
        "cbvmda:fishingGearTypeCode": "LL",
      },
    ],
  },
};

const farmIlmd = {
  "cbvmda:lotNumber": "LOT3",
  "cbvmda:productionMethodForFishAndSeafoodCode": "AQUACULTURE",
  "gdst:aquacultureMethod": "POND",
  "gdst:broodstockSource": "DOMESTIC",
};

export function fixtureEvents(): EpcisEvent[] {
  return [
    {
      type: "ObjectEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000001",
      eventTime: "2024-03-01T10:00:00.0005Z",
      eventTimeZoneOffset: "+00:00",
      action: "ADD",
      bizStep: "commissioning",
      disposition: "active",
      epcList: [IDS.itemA1, IDS.itemA2],
      readPoint: { id: IDS.vessel },
      bizLocation: { id: IDS.vessel },
      ilmd: wildCatchIlmd,
      ...common,
    },
    {
      type: "ObjectEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000002",
      eventTime: "2024-03-01T15:30:00+05:30",
      eventTimeZoneOffset: "+05:30",
      action: "OBSERVE",
      bizStep: "shipping",
      disposition: "https://ref.gs1.org/cbv/Disp-in_transit",
      epcList: [DL.itemA1],
      bizLocation: { id: DL.vessel },
      ...common,
    },
    {
      type: "ObjectEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000003",
      eventTime: "2024-03-01T07:00:00-03:00",
      eventTimeZoneOffset: "-03:00",
      action: "OBSERVE",
      bizStep: "https://ref.gs1.org/cbv/BizStep-receiving",
      disposition: "https://ref.gs1.org/cbv/Disp-in_progress",
      quantityList: [{ epcClass: IDS.lot1, quantity: 40, uom: "KGM" }],
      bizLocation: { id: IDS.plant },
      ...common,
    },
    {
      type: "AggregationEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000004",
      eventTime: "2024-03-02T00:00:00Z",
      eventTimeZoneOffset: "+00:00",
      action: "ADD",
      bizStep: "packing",
      disposition: "active",
      parentID: IDS.pallet,
      childEPCs: [IDS.itemA2],
      childQuantityList: [{ epcClass: DL.lot1, quantity: 10, uom: "KGM" }],
      bizLocation: { id: IDS.plant },
      ...common,
    },
    {
      type: "TransformationEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000005",
      eventTime: "2024-03-03T12:00:00.123456789Z",
      eventTimeZoneOffset: "+00:00",
      bizStep: "commissioning",
      disposition: "active",
      inputEPCList: [IDS.itemA1],
      inputQuantityList: [{ epcClass: IDS.lot2, quantity: 5, uom: "KGM" }],
      outputEPCList: [DL.itemB1],
      outputQuantityList: [{ epcClass: IDS.lot3, quantity: 4, uom: "KGM" }],
      transformationID: IDS.transformation,
      bizLocation: { id: IDS.plant },
      ilmd: farmIlmd,
      ...common,
    },
    {
      type: "AggregationEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000006",
      eventTime: "2024-03-04T09:00:00.5+09:00",
      eventTimeZoneOffset: "+09:00",
      action: "DELETE",
      bizStep: "unpacking",
      disposition: "inactive",
      parentID: DL.pallet,
      childEPCs: [DL.itemA2],
      bizLocation: { id: DL.plant },
      ...common,
    },
    {
      type: "TransformationEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000007",
      eventTime: "2024-03-05T08:00:00-10:00",
      eventTimeZoneOffset: "-10:00",
      bizStep: "https://ref.gs1.org/cbv/BizStep-commissioning",
      disposition: "active",
      inputQuantityList: [{ epcClass: IDS.lot3, quantity: 4, uom: "KGM" }],
      outputQuantityList: [{ epcClass: IDS.opaqueEpc, quantity: 4, uom: "KGM" }],
      transformationID: IDS.oddTransformation,
      ...common,
    },
    {
      type: "ObjectEvent",
      eventID: "urn:uuid:00000000-0000-4000-8000-000000000008",
      eventTime: "2024-03-06T00:00:00Z",
      eventTimeZoneOffset: "+00:00",
      action: "DELETE",
      bizStep: "decommissioning",
      epcList: [IDS.itemB1, IDS.opaqueEpc],
      bizLocation: { id: IDS.plant },
      ...common,
    },
  ];
}

export function fixtureDataset(): Dataset {
  return { events: fixtureEvents(), masterData: [] };
}
