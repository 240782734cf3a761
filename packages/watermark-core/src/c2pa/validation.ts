// From C2PA status entries to the three states a person acts on. An untrusted signing credential
// is listed among the failures by c2pa-node, but it says nothing about the file being altered:
// it only means no configured trust anchor vouches for the signer.
import { asArray, asRecord, asString, stringOrNull } from './json-view.ts';
import type { ValidationIssue, ValidationState, ValidationSummary } from './manifest-summary.ts';

const UNTRUSTED_CODES = new Set(['signingCredential.untrusted']);

export function parseIssues(value: unknown): ValidationIssue[] {
  return asArray(value).flatMap((entry) => {
    const record = asRecord(entry);
    const code = asString(record?.code);
    return code === undefined
      ? []
      : [{ code, explanation: stringOrNull(record?.explanation), url: stringOrNull(record?.url) }];
  });
}

/** Classifies failure entries alone (used where c2pa-node gives no overall state). */
export function summariseFailures(failures: readonly ValidationIssue[]): ValidationSummary {
  const state: ValidationState = failures.some((issue) => !UNTRUSTED_CODES.has(issue.code))
    ? 'invalid'
    : failures.length > 0
      ? 'valid_untrusted'
      : 'trusted';
  return { state, failures };
}

/** c2pa-node's `validation_state` (Invalid / Valid / Trusted), cross-checked with the failures. */
export function summariseStoreValidation(
  validationState: unknown,
  failures: readonly ValidationIssue[],
): ValidationSummary {
  const fromFailures = summariseFailures(failures);
  if (validationState === 'Invalid') return { state: 'invalid', failures };
  if (validationState === 'Valid') {
    return { state: fromFailures.state === 'invalid' ? 'invalid' : 'valid_untrusted', failures };
  }
  if (validationState === 'Trusted') return { state: fromFailures.state, failures };
  return fromFailures;
}
