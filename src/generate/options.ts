// The shape options shared by datasetArbitrary and generateDataset, checked once.

export const CHAIN_MODULES = ["wildcatch", "aquaculture"] as const;
/** The kind of supply chain: wild catch (marine or inland fishery) or aquaculture. */
export type ChainModule = (typeof CHAIN_MODULES)[number];

/** How EPCs, classes, locations and parties are written: EPC URN, Digital Link URI, or either per occurrence. */
export type EpcForm = "mixed" | "urn" | "dl";

/**
 * How bizStep values are written. "mixed" uses the bare word and the Web URI; "urn" writes
 * urn:epcglobal:cbv:bizstep:… on every event, which the published EPCIS 2.0 JSON schema refuses in an event
 * body (its bizStep is a bare CBV word or a URI outside urn:epcglobal:cbv), so such datasets suit loading
 * into a sender but not schema checks.
 */
export type BizStepForm = "mixed" | "short" | "urn" | "web";

/** The EPCIS event types the seven core events use (spec 6). */
export const CORE_EVENT_TYPES = ["ObjectEvent", "AggregationEvent", "TransformationEvent"] as const;

export interface DatasetShape {
  /** Kinds of chain to build (default: both). */
  modules?: ChainModule[];
  epcForm?: EpcForm;
  bizStepForm?: BizStepForm;
  /** Keep only events of these EPCIS types (default: all three core types). */
  eventTypes?: string[];
}

export interface ResolvedShape {
  modules: readonly ChainModule[];
  epcForm: EpcForm;
  bizStepForm: BizStepForm;
  eventTypes: ReadonlySet<string>;
}

const EPC_FORMS: readonly string[] = ["mixed", "urn", "dl"];
const BIZSTEP_FORMS: readonly string[] = ["mixed", "short", "urn", "web"];

export function resolveShape(shape: DatasetShape): ResolvedShape {
  const modules = shape.modules ?? [...CHAIN_MODULES];
  if (modules.length === 0 || modules.some((m) => !(CHAIN_MODULES as readonly string[]).includes(m))) {
    throw new Error(
      `modules must name one or more of ${CHAIN_MODULES.join(", ")}; got [${modules.join(", ")}].`,
    );
  }
  const epcForm = shape.epcForm ?? "mixed";
  if (!EPC_FORMS.includes(epcForm)) {
    throw new Error(`epcForm "${epcForm}" is unknown; use one of ${EPC_FORMS.join(", ")}.`);
  }
  const bizStepForm = shape.bizStepForm ?? "mixed";
  if (!BIZSTEP_FORMS.includes(bizStepForm)) {
    throw new Error(`bizStepForm "${bizStepForm}" is unknown; use one of ${BIZSTEP_FORMS.join(", ")}.`);
  }
  const eventTypes = shape.eventTypes ?? [...CORE_EVENT_TYPES];
  const unknown = eventTypes.filter((t) => !(CORE_EVENT_TYPES as readonly string[]).includes(t));
  if (eventTypes.length === 0 || unknown.length > 0) {
    throw new Error(
      `eventTypes must name one or more of ${CORE_EVENT_TYPES.join(", ")}; got [${eventTypes.join(", ")}].`,
    );
  }
  return { modules: [...new Set(modules)], epcForm, bizStepForm, eventTypes: new Set(eventTypes) };
}
