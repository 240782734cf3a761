import { HallmarkApiError } from '@hallmark/sdk';

/** The API's refusal of a call that must be refused; fails the test when the call goes through. */
export async function problemOf(call: () => Promise<unknown>): Promise<HallmarkApiError> {
  const error = await call().then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HallmarkApiError)) throw new Error(`expected a problem, got ${error}`);
  return error;
}

/** The status of that refusal. */
export async function statusOf(call: () => Promise<unknown>): Promise<number> {
  return (await problemOf(call)).status;
}
