// Values no generated dataset holds, which the suites ask for to see that nothing comes back.

/** Values that name nothing a generated dataset holds (and, in all likelihood, nothing a vendor's holds). */
export const NO_MATCH = {
  epcs: ["https://id.gs1.org/00/000000000000000000", "urn:epc:id:sgtin:0000000.000000.NOMATCH"],
  classes: ["urn:epc:class:lgtin:0000000.000000.NOMATCH", "urn:epc:idpat:sgtin:0000000.000000.*"],
  bizSteps: ["void_shipping", "https://ref.gs1.org/cbv/BizStep-void_shipping", "urn:tracecheck:bizstep:none"],
  locations: ["https://id.gs1.org/414/0000000000000", "urn:epc:id:sgln:0000000.00000.0"],
  transformationIds: [
    "urn:uuid:00000000-0000-4000-8000-000000000000",
    "urn:tracecheck:transformation:none",
    "https://trace.example.com/transformations/none?lot=A%2FB&run=0",
  ],
  times: ["2000-01-01T00:00:00Z", "2099-12-31T23:59:59.999999999+14:00"],
} as const;
