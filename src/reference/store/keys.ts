// Index keys. An identifier the model cannot canonicalise is still stored and served: it is then keyed, and
// compared, as written.
import { canonicalBizStep, canonicalId, classMatches, gtinOf } from "../../model/index.ts";

export function idKey(uri: string): string {
  try {
    return canonicalId(uri);
  } catch {
    return uri.trim();
  }
}

export function bizStepKey(value: string): string {
  try {
    return canonicalBizStep(value);
  } catch {
    return value;
  }
}

export function classMatchesSafely(queryValue: string, epcClass: string): boolean {
  try {
    return classMatches(queryValue, epcClass);
  } catch {
    return idKey(queryValue) === idKey(epcClass);
  }
}

export function gtinKey(canonical: string): string | undefined {
  try {
    return gtinOf(canonical);
  } catch {
    return undefined;
  }
}
