// One defect, one failure: what a check of a link, or of a step of the exchange, finds wrong may be a defect that a
// requirement judged directly by the run fails already (a filter of GET /events that drops events, a path that
// answers no link set, a master data document that is not JSON-LD). Such a finding is recorded as blocked by the
// requirements any one of which explains it (checks.failUnlessBlocked); the block stands only where one of them
// failed in the same run, and the finding fails as it would alone where none did (their checks may have drawn other
// values), so that naming them never hides a defect. Only requirements the run judges are named.

import type { RunContext } from "../engine/context.ts";
import type { Checks } from "../engine/suite.ts";
import type { ConformanceClass, Evidence } from "../engine/types.ts";
import type { PathForm } from "../model/index.ts";
import {
  CLASS_LISTS,
  type ClassList,
  canonicalId,
  classMatches,
  EPC_FIELDS,
  type EpcField,
  type EpcisEvent,
  type EventQuery,
  eventIdentity,
  isClassPattern,
  LIST_PARAMETERS,
  parseQueryString,
  TIME_PARAMETERS,
  type TimeParameter,
} from "../model/index.ts";
import { eventsUrl } from "../target/client.ts";
import { queryEvents } from "../target/events.ts";
import { classesIn, epcsIn, needsEscaping } from "../target/pools.ts";

/** The class of a requirement, by the prefix of its id (suites/requirements.yaml: "the prefix names the class"). */
const CLASS_OF_PREFIX: Readonly<Record<string, ConformanceClass>> = {
  EVT: "events",
  RES: "resolver",
  MD: "masterdata",
  AUTH: "auth",
  CORE: "core-events",
  FLOW: "workflow",
  DEF: "definition",
  RCV: "receiver",
};

export function classOfRequirement(id: string): ConformanceClass | undefined {
  return CLASS_OF_PREFIX[id.slice(0, id.indexOf("-"))];
}

/** Whether the run checks requirement `id`: its class is selected, and a proving run's --only names it. */
export function judgedInRun(ctx: Pick<RunContext, "classes" | "onlyRequirements">, id: string): boolean {
  const cls = classOfRequirement(id);
  return cls !== undefined && ctx.classes.includes(cls) && (ctx.onlyRequirements?.includes(id) ?? true);
}

/**
 * Records a finding: blocked by those of `explainedBy` the run judges (checks.blocked names the one that failed),
 * or, where the run judges none of them, a failure with `evidence`.
 */
export function failUnlessExplained(
  checks: Checks,
  ctx: RunContext,
  explainedBy: readonly string[],
  reason: string,
  evidence?: Evidence,
): void {
  const judged = [...new Set(explainedBy)].filter((id) => judgedInRun(ctx, id));
  if (judged.length === 0) checks.fail(reason, evidence);
  else checks.failUnlessBlocked(judged, reason, evidence);
}

/** The requirement that each path form answers with a link set (spec 4.2). */
export const PATH_REQUIREMENT: Readonly<Record<PathForm, string>> = {
  "00": "RES-PATH-SSCC",
  "417": "RES-PATH-PGLN",
  "414": "RES-PATH-GLN",
  "01": "RES-PATH-GTIN",
  "01/10": "RES-PATH-GTIN-LOT",
  "01/21": "RES-PATH-GTIN-SERIAL",
};

const EPC_REQUIREMENT: Readonly<Record<EpcField, string>> = {
  epcList: "EVT-EPC-EPCLIST",
  childEPCs: "EVT-EPC-CHILDEPCS",
  parentID: "EVT-EPC-PARENTID",
  inputEPCList: "EVT-EPC-INPUT",
  outputEPCList: "EVT-EPC-OUTPUT",
};

const CLASS_REQUIREMENT: Readonly<Record<ClassList, string>> = {
  quantityList: "EVT-CLASS-QUANTITY",
  childQuantityList: "EVT-CLASS-CHILD",
  inputQuantityList: "EVT-CLASS-INPUT",
  outputQuantityList: "EVT-CLASS-OUTPUT",
};

const TIME_REQUIREMENT: Readonly<Record<TimeParameter, string>> = {
  LT_recordTime: "EVT-TIME-LT-RECORD",
  GE_recordTime: "EVT-TIME-GE-RECORD",
  LT_eventTime: "EVT-TIME-LT-EVENT",
  GE_eventTime: "EVT-TIME-GE-EVENT",
};

/**
 * The fields, among `fields`, where the events hold one of the values as `holds` matches it; every field where
 * there are no events to tell by, or none holds it.
 */
function fieldsHolding<F extends string>(
  fields: readonly F[],
  lacking: readonly EpcisEvent[],
  holds: (e: EpcisEvent, field: F) => boolean,
): readonly F[] {
  const held = fields.filter((f) => lacking.some((e) => holds(e, f)));
  return held.length > 0 ? held : fields;
}

/**
 * The requirements of GET /events whose defect may explain a wrong answer to `query` (spec 4.1): the filter of
 * each parameter it uses, for an EPC or a class only the fields where the events the answer lacks hold the value
 * asked (every field when it lacks none, as when it answered events it should not); the combination of
 * parameters or of pipe-joined values where the query has them; paging, which may lose a page, answer one twice,
 * or lead to a page of another query; and percent-encoding where a value needs escaping.
 */
export function answerExplainedBy(query: EventQuery, lacking: readonly EpcisEvent[] = []): string[] {
  const ids: string[] = [];
  const epcs = query.MATCH_anyEPC;
  if (epcs !== undefined) {
    const fields = fieldsHolding(EPC_FIELDS, lacking, (e, f) => epcsIn(e, f).some((v) => epcs.includes(v)));
    ids.push(...fields.map((f) => EPC_REQUIREMENT[f]));
  }
  const classes = query.MATCH_anyEPCClass;
  if (classes !== undefined) {
    const fields = fieldsHolding(CLASS_LISTS, lacking, (e, f) =>
      classesIn(e, f).some((c) => classes.some((v) => v === c || classMatches(v, c))),
    );
    ids.push(...fields.map((f) => CLASS_REQUIREMENT[f]));
    if (classes.some(isClassPattern)) ids.push("EVT-CLASS-PATTERN");
  }
  if (query.EQ_bizStep !== undefined) ids.push("EVT-BIZSTEP-MATCH", "EVT-BIZSTEP-FORMS");
  if (query.EQ_transformationID !== undefined) ids.push("EVT-TRANSFORMATION-ID");
  if (query.EQ_bizLocation !== undefined) ids.push("EVT-BIZLOCATION");
  for (const t of TIME_PARAMETERS) if (query[t] !== undefined) ids.push(TIME_REQUIREMENT[t]);
  const lists = LIST_PARAMETERS.map((p) => query[p]).filter((v) => v !== undefined);
  if (lists.some((values) => values.length > 1)) ids.push("EVT-PIPE-OR");
  if (lists.length + TIME_PARAMETERS.filter((t) => query[t] !== undefined).length > 1) ids.push("EVT-AND");
  ids.push("EVT-PAGING");
  if (lists.some((values) => values.some(needsEscaping))) ids.push("EVT-ENCODING");
  return ids;
}

/** The query a GET /events URL asks. */
export function queryOf(url: string): EventQuery {
  return parseQueryString(new URL(url).search).query;
}

/**
 * Whether `url` asks the target's own GET /events, the endpoint the events class judges: a link to another place
 * answers for itself.
 */
export function atTargetEvents(ctx: RunContext, url: string): boolean {
  const path = (u: URL) => `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
  try {
    return path(new URL(url)) === path(new URL(eventsUrl(ctx, "")));
  } catch {
    return false;
  }
}

const IDENTIFIER_PARAMETERS = new Set(["MATCH_anyEPC", "MATCH_anyEPCClass", "EQ_bizLocation"]);

/**
 * Whether a query selects by the identifier alone: only EPC, class or location parameters, every value the
 * identifier in some spelling (a class pattern of a GTIN counts as the GTIN). A correct answer to it holds every
 * event that holds the identifier as the query writes it, so an answer that does not is the query interface's.
 */
export function selectsIdentifierAlone(query: EventQuery, uri: string): boolean {
  const keys = Object.keys(query);
  const target = canonicalId(uri);
  return (
    keys.length > 0 &&
    keys.every((k) => IDENTIFIER_PARAMETERS.has(k)) &&
    keys.every((k) => {
      const values = query[k as keyof EventQuery];
      return Array.isArray(values) && values.length > 0 && values.every((v) => canonicalId(v) === target);
    })
  );
}

/**
 * Where an answer lacks events that hold the identifier in another spelling than the query asked, which of them the
 * target's GET /events also leaves out when asked `written`, the query as those events write it: a filter that
 * drops them is the failure of its requirements (answerExplainedBy); one that answers them leaves the spelling to
 * blame, which no requirement of GET /events explains (a sender may match only as written, EVT-EPC-FORMS). None
 * where the target does not answer `written` with events.
 */
export async function explainedAsWritten(
  ctx: RunContext,
  written: EventQuery,
  lacking: readonly EpcisEvent[],
): Promise<string[]> {
  const answer = await queryEvents(ctx, written);
  if (answer.kind !== "events") return [];
  const answered = new Set(answer.events.map(eventIdentity));
  const still = lacking.filter((e) => !answered.has(eventIdentity(e)));
  return still.length === 0 ? [] : answerExplainedBy(written, still);
}
