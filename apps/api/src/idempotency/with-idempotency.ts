import { isUniqueViolation } from '@hallmark/db';

/**
 * The Idempotency-Key rule of every request that creates a job: with a key already used, the
 * first answer is given again (`replay`, which refuses a different body itself); otherwise
 * `create` runs, and when two first requests with the same key race, the one whose insert hit
 * the unique key answers like a replay of the other.
 */
export async function withIdempotency<Answer>(
  idempotencyKey: string | undefined,
  replay: () => Promise<Answer | null>,
  create: () => Promise<Answer>,
): Promise<Answer> {
  if (idempotencyKey === undefined) return create();
  const earlier = await replay();
  if (earlier !== null) return earlier;
  try {
    return await create();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await replay();
    if (winner === null) throw error;
    return winner;
  }
}
