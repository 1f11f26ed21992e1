// Business steps in their three equivalent forms (spec 2.1, spec 4.1 rule 3).

/** The bare words of every CBV 2.0 business step. */
export const CBV_BIZSTEPS: readonly string[] = Object.freeze([
  "accepting",
  "arriving",
  "assembling",
  "collecting",
  "commissioning",
  "consigning",
  "creating_class_instance",
  "cycle_counting",
  "decommissioning",
  "departing",
  "destroying",
  "disassembling",
  "dispensing",
  "encoding",
  "entering_exiting",
  "holding",
  "inspecting",
  "installing",
  "killing",
  "loading",
  "other",
  "packing",
  "picking",
  "receiving",
  "removing",
  "repackaging",
  "repairing",
  "replacing",
  "reserving",
  "retail_selling",
  "sampling",
  "sensor_reporting",
  "shipping",
  "staging_outbound",
  "stock_taking",
  "stocking",
  "storing",
  "transporting",
  "unloading",
  "unpacking",
  "void_shipping",
]);

/** A CBV vocabulary's URN and Web URI prefixes: a term is written bare, or after either of them (CBV 2.0). */
export interface CbvVocabulary {
  urn: string;
  web: string;
}

const URN_PREFIX = "urn:epcglobal:cbv:bizstep:";
const WEB_PREFIX = "https://ref.gs1.org/cbv/BizStep-";
const BIZ_STEP: CbvVocabulary = { urn: URN_PREFIX, web: WEB_PREFIX };
// A CBV term's name: the vocabulary uses lower-case words joined by underscores; extensions follow the shape.
const TERM_NAME = /^[A-Za-z0-9_-]+$/;

/** The bare word of a value written in a CBV form of `vocabulary`; any other value as written. */
export function canonicalCbvTerm(value: string, vocabulary: CbvVocabulary): string {
  for (const prefix of [vocabulary.urn, vocabulary.web]) {
    if (value.startsWith(prefix)) {
      const name = value.slice(prefix.length);
      if (TERM_NAME.test(name)) return name;
    }
  }
  return value;
}

/** The short, URN and web URI forms of a step, e.g. shipping, urn:epcglobal:cbv:bizstep:shipping, … */
export function bizStepForms(bare: string): { short: string; urn: string; webUri: string } {
  return { short: bare, urn: URN_PREFIX + bare, webUri: WEB_PREFIX + bare };
}

/**
 * The bare word for any of the three forms of a CBV step, including names outside the CBV 2.0 list written in
 * the CBV URN or web URI shape (the vocabulary is extensible); any other value, such as a custom URI, stands
 * for itself (spec 2.1).
 */
export function canonicalBizStep(value: string): string {
  return canonicalCbvTerm(value, BIZ_STEP);
}

export function bizStepsEqual(a: string, b: string): boolean {
  return canonicalBizStep(a) === canonicalBizStep(b);
}
