import { HallmarkApiError, problemTypes } from '@hallmark/sdk';

/** What a form shows after its server action: the API's verdict, mapped onto the form. */
export interface FormState {
  /** Confirmation of a change that went through. */
  readonly ok?: string;
  /** Why the change was refused (the problem's detail). */
  readonly error?: string;
  /** The problem's `errors`, by field name (the form's fields are named like the API's). */
  readonly fields?: Readonly<Record<string, string>>;
  /** A value shown once (a new API key). */
  readonly secret?: string;
}

export const EMPTY_FORM: FormState = {};

/** An API refusal as form state; anything else is a fault of the console and rethrown. */
export function problemState(error: unknown): FormState {
  if (!(error instanceof HallmarkApiError)) throw error;
  const fields: Record<string, string> = {};
  for (const fieldError of error.problem?.errors ?? []) {
    fields[fieldError.path] ??= fieldError.message;
  }
  // The API's summary ("The request body has 2 invalid field(s).") speaks of its request; the
  // person at the form needs only to look at the fields, each with its message beside it.
  if (error.problem?.type === problemTypes.validationError.type && Object.keys(fields).length > 0) {
    return { error: 'Please correct the marked fields.', fields };
  }
  const expired = error.status === 401 ? ' Sign in again.' : '';
  return { error: `${error.problem?.detail ?? error.message}${expired}`, fields };
}

/** A text field of a form; empty or missing is `undefined`, so the API names what is missing. */
export function textOf(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
