/**
 * The JSON-LD context that makes a master data document GS1 Web Vocabulary (spec 2.2): bare terms and the
 * gs1: prefix both expand into the vocabulary's namespace.
 */
export const GS1_VOC_CONTEXT = { "@vocab": "https://gs1.org/voc/", gs1: "https://gs1.org/voc/" } as const;
