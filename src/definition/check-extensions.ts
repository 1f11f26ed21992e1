import { LIST_PARAMETERS } from "../model/types.ts";
import { CORE_EVENTS } from "./core-events.ts";
import {
  CORE_EVENTS_EXTENSION,
  type DeclaredCoreEvent,
  findCoreEvents,
  noAction,
} from "./declared-core-events.ts";
import { deref, escapePointer, isObject } from "./json-pointer.ts";
import {
  type FoundProperty,
  findMasterDataSchemas,
  propertiesOf,
  unfoundMasterDataTypes,
} from "./master-data-schemas.ts";
import { parametersOf } from "./operations.ts";
import type { ExtensionFamily, ExtensionProblem, JsonObject, MasterDataTypeName } from "./types.ts";

/** The classification property of each type whose values are an extensible list (spec 2.2). */
const CLASSIFICATIONS: Partial<Record<MasterDataTypeName, string>> = {
  "gs1:Product": "productClassification",
  "gs1:Place": "locationClassification",
};

/** Whether a row's column holds spec 6's value for it: event types and actions compared without case. */
function sameAsSpec(value: unknown, spec: string | null): boolean {
  if (spec === null) return noAction(value);
  return typeof value === "string" && value.trim().toLowerCase() === spec.toLowerCase();
}

/** The columns of a row that spec 6 fixes: the others are the definition's own ("not shown"). */
const FIXED_COLUMNS = [
  ["eventType", "event type"],
  ["action", "action"],
] as const;

/**
 * Spec 6 fixes the name, event type and action of the seven core events and says that their signatures are
 * declared in x-std-core-events. Where the definition puts it and the shape of its rows are not shown
 * (declared-core-events.ts reads them wherever a reader would), nor are its further columns ("The names and values
 * of those further columns: not shown"), so bizStep and disposition are the definition's own and not judged.
 * Nor does the spec say that the extension holds nothing else: a row that names no core event (or no event at
 * all) and a signature declared again are the definition's own too. What is judged is that each of the seven is
 * declared, and that every row declaring one gives spec 6's event type and action, so a second row that
 * contradicts spec 6 fails where it stands.
 */
function checkCoreEvents(raw: JsonObject): ExtensionProblem[] {
  const declared = findCoreEvents(raw);
  if (!declared.found) {
    return [
      {
        family: "core-events",
        path: `/${CORE_EVENTS_EXTENSION}`,
        message: `${CORE_EVENTS_EXTENSION} is not declared anywhere in the definition; declare the seven core events of spec 6.`,
      },
    ];
  }
  const { at, rows } = declared;
  if (rows === undefined) {
    return [
      {
        family: "core-events",
        path: at,
        message: `${CORE_EVENTS_EXTENSION} must list the event signatures, as a list of rows or as rows keyed by the event's name.`,
      },
    ];
  }
  const problems: ExtensionProblem[] = [];
  for (const expected of CORE_EVENTS) {
    const same = rows.filter((r) => r.name === expected.name);
    if (same.length === 0) {
      problems.push({
        family: "core-events",
        path: at,
        message: `The core event ${expected.name} is missing.`,
      });
      continue;
    }
    // With several rows for one event, the message says which one is wrong: the others may agree with spec 6.
    const which = (row: DeclaredCoreEvent) =>
      same.length > 1 ? ` (the row at ${row.at}, one of its ${same.length})` : "";
    for (const row of same) {
      for (const [field, label] of FIXED_COLUMNS) {
        const { key, value } = row.columns[field];
        if (sameAsSpec(value, expected[field])) continue;
        problems.push({
          family: "core-events",
          path: `${row.at}/${escapePointer(key ?? field)}`,
          message: `${expected.name}${which(row)} has ${label} ${JSON.stringify(value ?? null)} where spec 6 fixes ${JSON.stringify(expected[field])}.`,
        });
      }
    }
  }
  return problems;
}

/**
 * What x-std-core-events holds beyond one row per core event, which checkCoreEvents leaves to the definition: the
 * rows that name no core event or no event at all, and the core events declared more than once (each of whose
 * rows is judged). Undefined when it holds nothing more, or cannot be read as rows. A pass names them, so that the
 * user sees what was not judged.
 */
export function coreEventsBeyondTheSeven(raw: JsonObject): string | undefined {
  const declared = findCoreEvents(raw);
  if (!declared.found || declared.rows === undefined) return undefined;
  const { rows } = declared;
  const unnamed = rows
    .filter((r) => r.name === undefined)
    .map((r) => (r.written === undefined ? `a row without a name at ${r.at}` : JSON.stringify(r.written)));
  const repeated = CORE_EVENTS.map((e) => [e.name, rows.filter((r) => r.name === e.name).length] as const)
    .filter(([, count]) => count > 1)
    .map(([name, count]) => `${name} (${count} rows)`);
  const parts = [
    ...(unnamed.length > 0 ? [`rows that name no core event, not judged: ${unnamed.join(", ")}`] : []),
    ...(repeated.length > 0 ? [`declared more than once, every row judged: ${repeated.join(", ")}`] : []),
  ];
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/**
 * The members a JSON-LD document uses to say what it is rather than to state an attribute: its keywords (@context,
 * @type, @id, …) and the aliases contexts give @id and @type. They are not properties of the GS1 Web Vocabulary,
 * so they have no attribute name in the controlled business vocabulary for x-kde-name to hold (spec 2.2).
 */
export function isJsonLdKeyword(name: string): boolean {
  return name.startsWith("@") || name === "id" || name === "type";
}

/** Every property of a master data schema, nested ones (e.g. of an address) included, JSON-LD keywords left out. */
function allProperties(raw: JsonObject, schema: unknown, at: string): FoundProperty[] {
  const out: FoundProperty[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, where: string) => {
    const r = deref(raw, node, where);
    if (seen.has(r.at)) return;
    seen.add(r.at);
    for (const property of propertiesOf(raw, r.node, r.at)) {
      if (isJsonLdKeyword(property.name)) continue;
      out.push(property);
      visit(property.schema, property.at);
      const items = property.schema.items;
      if (items !== undefined) visit(items, `${property.at}/items`);
    }
  };
  visit(schema, at);
  return out;
}

function checkMasterData(raw: JsonObject): ExtensionProblem[] {
  const problems: ExtensionProblem[] = [];
  // A type whose schema is not found is not judged (masterDataNotJudged): where the schema sits is not shown.
  const found = findMasterDataSchemas(raw);
  // A schema shared by several types (an address) is reported once, at its own place.
  const reported = new Set<string>();
  for (const f of found) {
    const classification = CLASSIFICATIONS[f.type];
    for (const p of allProperties(raw, f.schema, f.at)) {
      const kde = p.schema["x-kde-name"];
      if ((typeof kde !== "string" || kde.trim() === "") && !reported.has(p.at)) {
        reported.add(p.at);
        problems.push({
          family: "kde-name",
          path: p.at,
          message: `Property ${p.name} of ${f.type} has no x-kde-name.`,
        });
      }
      const target = deref(raw, p.schema, p.at).node;
      const isEnum = Array.isArray(p.schema.enum) || (isObject(target) && Array.isArray(target.enum));
      if (isEnum && (p.schema["x-std-values"] !== undefined || p.name === classification)) {
        problems.push({
          family: "std-values",
          path: p.at,
          message: `Property ${p.name} of ${f.type} is an enum, which would refuse values its extensible list gains; list them in x-std-values only (spec 2.2).`,
        });
      }
    }
    if (!classification) continue;
    const p = propertiesOf(raw, f.schema, f.at).find((q) => q.name === classification);
    if (!p) {
      problems.push({
        family: "std-values",
        path: f.at,
        message: `${f.type} declares no ${classification}.`,
      });
      continue;
    }
    const values = p.schema["x-std-values"];
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string")) {
      problems.push({
        family: "std-values",
        path: p.at,
        message: `${classification} must list its permitted values in x-std-values as strings (spec 2.2).`,
      });
    }
  }
  return problems;
}

/** Where the harness looks for a type's schema, for the note that says it found none. */
const LOOKED_FOR: Record<MasterDataTypeName, string> = {
  "gs1:Organization": "the response of a GET /417/{pgln} path",
  "gs1:Place": "the response of a GET /414/{gln} path",
  "gs1:Product": "the response of a GET /01/{gtin} path",
};

/** What each master data family judges of a type: the types it reads, and what the note says went unchecked. */
const JUDGED_OF: Partial<Record<ExtensionFamily, Partial<Record<MasterDataTypeName, string>>>> = {
  "kde-name": {
    "gs1:Organization": "x-kde-name",
    "gs1:Place": "x-kde-name",
    "gs1:Product": "x-kde-name",
  },
  "std-values": { "gs1:Place": "locationClassification", "gs1:Product": "productClassification" },
};

/**
 * The master data types a family could not judge because the harness found no schema for them, and whether it found
 * none it judges at all (then the check has nothing to judge). The spec shows neither where a definition puts the
 * schemas nor what it names them (spec 2.2), so not finding one is the harness's ignorance, never the definition's
 * defect: a skip, or a note beside the verdict on what was found. Undefined when every type the family reads was
 * found, or the family reads no master data.
 */
export function masterDataNotJudged(
  raw: unknown,
  family: ExtensionFamily,
): { types: MasterDataTypeName[]; none: boolean; note: string } | undefined {
  const judged = JUDGED_OF[family];
  if (judged === undefined || !isObject(raw)) return undefined;
  const read = Object.keys(judged) as MasterDataTypeName[];
  const unfound = new Set(unfoundMasterDataTypes(raw));
  const types = read.filter((t) => unfound.has(t));
  if (types.length === 0) return undefined;
  const each = types.map(
    (t) =>
      `no schema for ${t} was found (looked for: x-master-data-type: ${t}, ${LOOKED_FOR[t]}, a schema named ${t.slice("gs1:".length)}), so its ${judged[t]} was not checked`,
  );
  return { types, none: types.length === read.length, note: each.join("; ") };
}

function checkListParameters(raw: JsonObject): ExtensionProblem[] {
  const problems: ExtensionProblem[] = [];
  const declared = parametersOf(raw, "/events").filter((d) => d.parameter.in === "query");
  for (const name of LIST_PARAMETERS) {
    const d = declared.find((x) => x.parameter.name === name);
    if (!d) {
      problems.push({
        family: "style-explode",
        path: "/paths/~1events/get/parameters",
        message: `Query parameter ${name} is not declared on GET /events.`,
      });
      continue;
    }
    const p = d.parameter;
    if (p["x-style"] !== "pipeDelimited") {
      problems.push({
        family: "style-explode",
        path: d.at,
        message: `${name} must carry x-style: pipeDelimited (spec 4.1 rule 2).`,
      });
    }
    if (p["x-explode"] !== false) {
      problems.push({
        family: "style-explode",
        path: d.at,
        message: `${name} must carry x-explode: false (spec 4.1 rule 2).`,
      });
    }
    if ((p.style !== undefined && p.style !== "pipeDelimited") || p.explode === true) {
      problems.push({
        family: "style-explode",
        path: d.at,
        message: `${name} declares style/explode that contradict one pipe-joined parameter (spec 4.1 rule 2).`,
      });
    }
  }
  return problems;
}

/** Checks the four vendor extension families of spec 9 in a parsed definition (ours or a vendor's). */
export function checkExtensions(raw: unknown): ExtensionProblem[] {
  if (!isObject(raw)) {
    return [
      {
        family: "core-events",
        path: "",
        message: "The definition is not an object, so none of its extensions can be read.",
      },
    ];
  }
  return [...checkCoreEvents(raw), ...checkMasterData(raw), ...checkListParameters(raw)];
}
