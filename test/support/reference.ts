// The reference sender in tests: started for one test's body, or for all the tests of a file or describe block,
// and closed afterwards even when a test fails.
import { type RunningReference, startReference } from "../../src/reference/index.ts";
import { sharedForTests } from "./for-tests.ts";

export type ReferenceOptions = Parameters<typeof startReference>[0];

/** Starts a reference, runs `use` with it, and closes it whatever happens. */
export async function withReference<T>(
  options: ReferenceOptions,
  use: (reference: RunningReference) => Promise<T>,
): Promise<T> {
  const reference = await startReference(options);
  try {
    return await use(reference);
  } finally {
    await reference.close();
  }
}

/**
 * A reference started before the tests of the file or describe block this is called in, and closed after them.
 * The function returned gives it to a test.
 */
export function referenceForTests(options: ReferenceOptions): () => RunningReference {
  return sharedForTests(
    "the reference",
    () => startReference(options),
    (reference) => reference.close(),
  );
}
