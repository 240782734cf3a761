import type { PrismaClient } from '@hallmark/db';
import { waitFor } from '@hallmark/runtime/testing';

/**
 * Starts `request` while the test holds an advisory lock, and returns once the request has
 * either answered (code that does not take the lock) or waits for an advisory lock of this
 * database (code that does): a race the test then settles in the order it chooses.
 */
export async function startUntilAnsweredOrBlocked<T>(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  request: () => Promise<T>,
  what: string,
): Promise<{ readonly running: Promise<T> }> {
  let answered = false;
  const running = request();
  running.then(
    () => {
      answered = true;
    },
    () => {
      answered = true;
    },
  );
  await waitFor(async () => {
    if (answered) return true;
    const [waiting] = await prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND NOT granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    return (waiting?.n ?? 0) > 0;
  }, what);
  return { running };
}
