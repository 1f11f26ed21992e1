import { expect } from "vitest";

/**
 * A message a user meets is one sentence (STYLE.md): a single line, ending with a full stop, with no second
 * sentence started inside it.
 */
export function expectOneSentence(message: string): void {
  const text = message.trim();
  expect(text, "one line").not.toContain("\n");
  expect(text.length, "not empty").toBeGreaterThan(10);
  expect(text, "ends with a full stop").toMatch(/\.$/);
  expect(text.slice(0, -1), "no second sentence").not.toMatch(/[.!?] [A-Z]/);
}
