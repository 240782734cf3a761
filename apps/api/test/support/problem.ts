import { HallmarkApiError } from '@hallmark/sdk';
import { expect } from 'vitest';

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

/** A fetch answer that must be the problem `slug` with `status`: its body, checked. */
export async function expectProblem(
  res: Response,
  status: number,
  slug: string,
): Promise<{ type: string; detail?: string; errors?: unknown[] }> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as { type: string; detail?: string };
  expect(body.type).toBe(`https://hallmark.dev/problems/${slug}`);
  return body;
}
