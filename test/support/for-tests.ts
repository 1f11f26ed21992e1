// A thing the tests of one file or describe block share: made before they run, disposed of after them, also when
// one of them fails.
import { afterAll, beforeAll } from "vitest";

/** Makes the thing in beforeAll and disposes of it in afterAll; the function returned gives it to a test. */
export function sharedForTests<T>(
  what: string,
  make: () => Promise<T>,
  dispose: (made: T) => Promise<void>,
): () => T {
  let made: { value: T } | undefined;
  beforeAll(async () => {
    made = { value: await make() };
  });
  afterAll(async () => {
    if (made !== undefined) await dispose(made.value);
  });
  return () => {
    if (made === undefined) throw new Error(`${what} is made in beforeAll: ask for it inside a test.`);
    return made.value;
  };
}
