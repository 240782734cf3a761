import type { FastifyInstance } from 'fastify';

/**
 * Answers ready in one event-loop turn leave together at its end (the check phase), rather than
 * each the moment its handler finishes, between the handling of the turn's other requests.
 *
 * Why: a write to a peer that is asleep makes the kernel wake it, and the writer pays for that
 * (and, on loopback, for the peer's TCP receive too). When a turn's answers go out back to back
 * the peer, often one proxy or client process over several keep-alive connections, wakes once
 * per turn instead of once per answer, and the turn's handlers run together without a syscall
 * between them (apps/api/README.md has what it saved). An answer waits at most
 * for the rest of its turn, which holds no long work: pixels run on their own threads.
 */
export function sendAnswersPerTurn(fastify: FastifyInstance): void {
  let turnEnd: Promise<void> | undefined;
  const endOfTurn = (): Promise<void> => {
    turnEnd ??= new Promise((resolve) => {
      setImmediate(() => {
        turnEnd = undefined;
        resolve();
      });
    });
    return turnEnd;
  };
  fastify.addHook('onSend', async (_request, _reply, payload) => {
    await endOfTurn();
    return payload;
  });
}
