// The reference loaded with documents nobody here wrote: every GS1 EPCIS 2.0 JSON example and the GDST examples
// (not the negative ones). Each is run with the classes whose verdicts depend on the events a sender holds, and
// must come out exactly as this table says: a requirement not listed passes or is skipped, a listed one has the
// status given, with a reason that says why. docs/real-documents.md is the same table for people.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../engine/repo.ts";
import type { Status } from "../engine/types.ts";
import type { Effort } from "./effort.ts";
import type { TracecheckOutcome, TracecheckRun } from "./outcome.ts";

/** The shared artefacts beside the repository, where the documents are. */
export const SHARED = path.resolve(REPO_ROOT, "../shared");
const GS1 = "epcis/examples/gs1/JSON";
const GDST = "gdst/opentraceability/events";
/** The classes whose verdicts depend on the events loaded; resolver, master data, auth and the definition do not. */
export const REAL_DOCUMENT_SUITES = "events,core-events,workflow";

export interface Expected {
  status: Exclude<Status, "pass" | "skip">;
  /** What the reason must say, so that the verdict explains itself. */
  says: RegExp;
  why: string;
}

const OUTSIDE_CORE: Expected = {
  status: "warn",
  says: /matches? none of the (seven )?core event signatures/,
  why: "an event that no row of tracecheck's x-std-core-events takes for a core event by its event type and bizStep (an AssociationEvent, a TransactionEvent, an AggregationEvent OBSERVE at receiving, an ObjectEvent at inspecting or sensor_reporting, a TransformationEvent or ObjectEvent at GDST's own steps): spec 6 never says that only core events are served, so a warning",
};
const TRANSFORMATION_DISPOSITION: Expected = {
  status: "warn",
  says: /is a Transformation \(TransformationEvent\) with disposition/,
  why: "a TransformationEvent is the Transformation core event, whose disposition tracecheck's x-std-core-events fixes as active; the example writes in_progress or none. The spec does not show that column, so without --definition it is a warning",
};
const AGGREGATION_DISPOSITION: Expected = {
  status: "warn",
  says: /is an Aggregation \(AggregationEvent\) with disposition in_progress/,
  why: "an AggregationEvent ADD is the Aggregation core event, whose disposition tracecheck's definition fixes as active; the example writes in_progress: a warning without --definition",
};
const RECEIVING_ACTION: Expected = {
  status: "warn",
  says: /is a Receiving \(ObjectEvent at bizStep \S*receiving\) with action ADD where spec 6 fixes OBSERVE/,
  why: "an ObjectEvent at receiving is the Receiving core event by tracecheck's x-std-core-events, whose action spec 6 fixes as OBSERVE; the example writes ADD. Which events are core events rests on columns the spec does not show, so without --definition it is a warning",
};
const SHIPPING_DISPOSITION: Expected = {
  status: "warn",
  says: /is a Shipping \(ObjectEvent\) with disposition active/,
  why: "GDST's shipping events write disposition active where tracecheck's x-std-core-events fixes in_transit for the Shipping core event: a warning without --definition",
};

/** Every document, with the verdicts it must get beyond pass and skip. */
export const EXPECTED: Readonly<Record<string, Readonly<Record<string, Expected>>>> = {
  [`${GS1}/AssociationEvent/AssociationEvent-a.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-b.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-c.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-d.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-e.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-f.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-g.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/AssociationEvent/AssociationEvent-h.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/EPCISQueryDocument.jsonld`]: {},
  [`${GS1}/Example-TransactionEvents-2020_07_03y.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/Example-Type-sourceOrDestination,measurement,bizTransaction.jsonld`]: {
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GS1}/Example_9.6.1-ObjectEvent-with-pseudo-SBDH-headers.jsonld`]: {},
  [`${GS1}/Example_9.6.1-ObjectEvent.jsonld`]: {},
  [`${GS1}/Example_9.6.1-with-comment.jsonld`]: {},
  [`${GS1}/Example_9.6.2-ObjectEvent.jsonld`]: {},
  [`${GS1}/Example_9.6.3-AggregationEvent.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/Example_9.6.4-TransformationEvent.jsonld`]: { "CORE-COLUMNS": TRANSFORMATION_DISPOSITION },
  [`${GS1}/PersistentDisposition-example.jsonld`]: {
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GS1}/WithDigitalLinkID/Example_9.6.1-ObjectEventWithDigitalLink.jsonld`]: {},
  [`${GS1}/WithDigitalLinkID/Example_9.6.2-ObjectEventWithDigitalLink.jsonld`]: {},
  [`${GS1}/WithDigitalLinkID/Example_9.6.3-AggregationEventWithDigitalLink.jsonld`]: {
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GS1}/WithDigitalLinkID/Example_9.6.4-TransformationEventWithDigitalLink.jsonld`]: {
    "CORE-COLUMNS": TRANSFORMATION_DISPOSITION,
  },
  [`${GS1}/WithErrorDeclaration/ErrorDeclarationAndCorrectiveEvent.jsonld`]: {
    "CORE-COLUMNS": TRANSFORMATION_DISPOSITION,
  },
  [`${GS1}/WithErrorDeclaration/Example_9.6.1-ObjectEvent-with-error-declaration.jsonld`]: {},
  [`${GS1}/WithFullCombinationOfFields/aggregation_event_all_possible_fields.jsonld`]: {
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GS1}/WithFullCombinationOfFields/association_event_all_possible_fields.jsonld`]: {
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GS1}/WithFullCombinationOfFields/object_event_all_possible_fields.jsonld`]: {
    "CORE-SIGNATURE": RECEIVING_ACTION,
  },
  [`${GS1}/WithFullCombinationOfFields/transaction_event_all_possible_fields.jsonld`]: {
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GS1}/WithFullCombinationOfFields/transformation_event_all_possible_fields.jsonld`]: {
    "CORE-COLUMNS": TRANSFORMATION_DISPOSITION,
  },
  [`${GS1}/WithSensorData/SensorDataExample1.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample10.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample11.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample12.jsonld`]: { "CORE-COLUMNS": TRANSFORMATION_DISPOSITION },
  [`${GS1}/WithSensorData/SensorDataExample13.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample14.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample15.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample16.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample17.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample1b.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample2.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample3.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample4.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample5.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample6.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample7.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GS1}/WithSensorData/SensorDataExample8.jsonld`]: { "CORE-COLUMNS": AGGREGATION_DISPOSITION },
  [`${GS1}/WithSensorData/SensorDataExample9.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GDST}/EPCISQueryDocument.GDST.jsonld`]: {},
  [`${GDST}/cap_tool_events.jsonld`]: { "CORE-COLUMNS": SHIPPING_DISPOSITION, "CORE-TYPE": OUTSIDE_CORE },
  [`${GDST}/farm_harvest_event_object.jsonld`]: { "CORE-TYPE": OUTSIDE_CORE },
  [`${GDST}/gdst_data_withmasterdata.jsonld`]: {
    "CORE-COLUMNS": SHIPPING_DISPOSITION,
    "CORE-TYPE": OUTSIDE_CORE,
  },
  [`${GDST}/testserver_advancedfilters.jsonld`]: {
    "CORE-COLUMNS": SHIPPING_DISPOSITION,
    "CORE-TYPE": OUTSIDE_CORE,
  },
  // Three of its eventIDs (…U) each name two different events, which EPCIS 2.0 forbids: the repository holds each
  // of those identities twice (the loaded dataset says so), and a sender serving both copies is right, so no
  // filter finds them "answered twice" and no copy "served with different content".
  [`${GDST}/traceback_tests.jsonld`]: {
    "CORE-COLUMNS": SHIPPING_DISPOSITION,
    "CORE-TYPE": OUTSIDE_CORE,
  },
};
/** The document that gives one eventID to two different events, three times. */
export const DUPLICATED_IDS_DOCUMENT = `${GDST}/traceback_tests.jsonld`;

/** Every example document, found on disk, so that one added upstream cannot go unchecked. */
export function documentsOnDisk(): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(SHARED, rel)).sort()) {
      const child = `${rel}/${name}`;
      if (statSync(path.join(SHARED, child)).isDirectory()) {
        if (name !== "negative") walk(child);
      } else if (name.endsWith(".jsonld")) {
        found.push(child);
      }
    }
  };
  walk(GS1);
  walk(GDST);
  return found;
}

/**
 * The documents `npm test` runs, one for each kind of verdict the table gives and every GDST document; `npm run
 * prove` runs them all. Each kind is here: a document that passes outright (plain, and with Digital Link
 * identifiers), one outside the core events, one whose source and destination lists name places and parties
 * that must resolve to master data, events at a core step that no row takes for a core event (an
 * AggregationEvent OBSERVE at receiving, a TransactionEvent at shipping), the breach of a core event's action
 * (Receiving) and of its further columns (Transformation, Aggregation, Shipping), and the duplicated eventIDs.
 */
export const QUICK_DOCUMENTS: readonly string[] = [
  `${GS1}/EPCISQueryDocument.jsonld`,
  `${GS1}/WithDigitalLinkID/Example_9.6.1-ObjectEventWithDigitalLink.jsonld`,
  `${GS1}/WithErrorDeclaration/Example_9.6.1-ObjectEvent-with-error-declaration.jsonld`,
  `${GS1}/AssociationEvent/AssociationEvent-a.jsonld`,
  `${GS1}/Example_9.6.2-ObjectEvent.jsonld`,
  `${GS1}/Example_9.6.4-TransformationEvent.jsonld`,
  `${GS1}/Example_9.6.3-AggregationEvent.jsonld`,
  `${GS1}/WithFullCombinationOfFields/object_event_all_possible_fields.jsonld`,
  `${GS1}/WithFullCombinationOfFields/transaction_event_all_possible_fields.jsonld`,
  `${GS1}/WithSensorData/SensorDataExample8.jsonld`,
  `${GDST}/EPCISQueryDocument.GDST.jsonld`,
  `${GDST}/cap_tool_events.jsonld`,
  `${GDST}/farm_harvest_event_object.jsonld`,
  `${GDST}/gdst_data_withmasterdata.jsonld`,
  `${GDST}/testserver_advancedfilters.jsonld`,
  `${GDST}/traceback_tests.jsonld`,
];

/** The documents an effort runs: the quick sample, or every one the table names. */
export function realDocumentsFor(effort: Effort): string[] {
  return effort.name === "quick" ? [...QUICK_DOCUMENTS] : Object.keys(EXPECTED);
}

/** One run per document, labelled by its place in the list so that the label stays a plain word. */
export function realDocumentRuns(documents: readonly string[]): TracecheckRun[] {
  return documents.map((doc, n) => ({
    label: `document-${n}`,
    args: [
      "--dataset",
      path.join(SHARED, doc),
      "--suite",
      REAL_DOCUMENT_SUITES,
      "--runs",
      "3",
      "--seed",
      "1",
    ],
  }));
}

export interface DocumentRow {
  document: string;
  exitCode: number | null;
  expectedExit: 0 | 1;
  /** Verdicts other than pass and skip that the table does not give: false verdicts. */
  unexpected: string[];
  /** Verdicts the table gives that did not come, or came with another status or a reason that does not say why. */
  wrong: string[];
  ok: boolean;
  /** Why a run gave no report, when it did not. */
  note: string;
}

/** The document's run against its row of the table. */
export function judgeDocument(document: string, outcome: TracecheckOutcome): DocumentRow {
  const expected = EXPECTED[document];
  if (expected === undefined) {
    throw new Error(
      `${document} is not in the real-document table; add its row to src/prove/real-documents.ts.`,
    );
  }
  const expectedExit = Object.values(expected).some((e) => e.status === "fail") ? 1 : 0;
  if (outcome.report === undefined) {
    const last = outcome.stderr.trim().split("\n").filter(Boolean).pop() ?? "no message";
    const note = outcome.timedOut
      ? `stopped after ${outcome.durationMs} ms`
      : `no report (exit ${outcome.exitCode}): ${last}`;
    return { document, exitCode: outcome.exitCode, expectedExit, unexpected: [], wrong: [], ok: false, note };
  }
  const notPassing = outcome.report.requirements.filter((r) => r.status !== "pass" && r.status !== "skip");
  const unexpected = notPassing
    .filter((r) => expected[r.id] === undefined)
    .map((r) => `${r.id} ${r.status}: ${r.reason ?? ""}`);
  const wrong: string[] = [];
  for (const [id, e] of Object.entries(expected)) {
    const r = notPassing.find((q) => q.id === id);
    if (r === undefined) wrong.push(`${id} should be ${e.status} (${e.why}) but was not`);
    else if (r.status !== e.status) wrong.push(`${id} is ${r.status} where ${e.status} is due (${e.why})`);
    else if (!e.says.test(r.reason ?? ""))
      wrong.push(`${id}'s reason does not say why: ${r.reason ?? "none"}`);
  }
  const ok = unexpected.length === 0 && wrong.length === 0 && outcome.exitCode === expectedExit;
  return { document, exitCode: outcome.exitCode, expectedExit, unexpected, wrong, ok, note: "" };
}
