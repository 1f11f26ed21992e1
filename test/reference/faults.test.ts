// The fault catalogue of the reference sender: what `tracecheck faults --json` prints, tied to the registry.
import { describe, expect, it } from "vitest";
import { loadRegistry } from "../../src/engine/registry.ts";
import { EVENTS_FAULTS } from "../../src/reference/events/index.ts";
import { FAULTS, faultCatalogue, startReference } from "../../src/reference/index.ts";
import { fixtureDataset } from "./events-fixture.ts";

describe("the fault catalogue", () => {
  it("holds at least 40 faults with unique kebab-case ids, each described", () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(40);
    const ids = FAULTS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of FAULTS) {
      expect(f.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description.length).toBeGreaterThan(10);
      expect(f.violates.length).toBeGreaterThan(0);
    }
  });

  // A MUST fault makes a run exit 1; a SHOULD fault is caught by its warning (the kill matrix counts both).
  it("ties every fault to MUST or SHOULD requirements of the registry", async () => {
    const registry = await loadRegistry();
    for (const f of FAULTS) {
      for (const id of f.violates) {
        expect(["MUST", "SHOULD"], `${f.id} names ${id}`).toContain(registry.byId.get(id)?.level);
      }
    }
  });

  it("ties the GET /events faults to events and core-event requirements only", async () => {
    const registry = await loadRegistry();
    for (const f of EVENTS_FAULTS) {
      for (const id of f.violates) expect(["events", "core-events"]).toContain(registry.byId.get(id)?.class);
    }
  });

  it("covers every MUST requirement of the events class with at least one fault", async () => {
    const registry = await loadRegistry();
    const violated = new Set(FAULTS.flatMap((f) => f.violates));
    const uncovered = registry.requirements
      .filter((r) => r.class === "events" && r.level === "MUST")
      .map((r) => r.id)
      .filter((id) => !violated.has(id));
    expect(uncovered).toEqual([]);
  });

  it("is printed as copies in the CONTRACT.md shape", () => {
    const printed = faultCatalogue();
    expect(printed).toEqual(
      FAULTS.map((f) => ({ id: f.id, description: f.description, violates: f.violates })),
    );
    for (const f of printed) expect(Object.keys(f).sort()).toEqual(["description", "id", "violates"]);
    (printed[0] as { violates: string[] }).violates.push("CHANGED");
    expect(FAULTS[0]?.violates).not.toContain("CHANGED");
  });

  it("lets the sender start with every fault it lists", async () => {
    for (const f of FAULTS) {
      const ref = await startReference({ dataset: fixtureDataset(), faults: [f.id] });
      await ref.close();
    }
  });
});
