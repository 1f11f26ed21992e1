import {
  CONFORMANCE_CLASSES,
  type ConformanceClass,
  type RequirementResult,
  type Status,
  type Summary,
} from "../engine/types.ts";

const CLASS_RANK = new Map<ConformanceClass, number>(CONFORMANCE_CLASSES.map((c, i) => [c, i]));

// A Record keyed by the union makes the compiler reject a status added to types.ts but not here.

const STATUS_RANK: Record<Status, number> = { pass: 0, fail: 1, warn: 2, skip: 3, error: 4 };

/** Conformance classes in the order every reporter lists them. */
export { CONFORMANCE_CLASSES };

/** Statuses in the order of the summary columns. */
export const STATUSES = Object.keys(STATUS_RANK) as Status[];

/** Statuses that make a requirement count as failing in a diff and a CI gate. */
export function isFailing(status: Status): boolean {
  return status === "fail" || status === "error";
}

export function emptySummary(): Summary {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
}

export function countStatuses(requirements: readonly RequirementResult[]): Summary {
  const counts = emptySummary();
  for (const r of requirements) counts[r.status] += 1;
  return counts;
}

/** Requirements grouped by class in CONFORMANCE_CLASSES order, keeping the report's order inside a class. */
export function groupByClass(
  requirements: readonly RequirementResult[],
): { class: ConformanceClass; requirements: RequirementResult[] }[] {
  const groups = new Map<ConformanceClass, RequirementResult[]>();
  for (const r of requirements) {
    const group = groups.get(r.class);
    if (group) group.push(r);
    else groups.set(r.class, [r]);
  }
  // A class unknown to this version (from a newer report) sorts last instead of disappearing.
  const rank = (c: ConformanceClass): number => CLASS_RANK.get(c) ?? CONFORMANCE_CLASSES.length;
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([cls, reqs]) => ({ class: cls, requirements: reqs }));
}
