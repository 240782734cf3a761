// Says the service is ready only when it is: each server answered HTTP, not merely was started.
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves true once `url` answers (any status), false if `stopped` settles first. */
export async function untilAnswering(url: string, stopped: Promise<unknown>): Promise<boolean> {
  let over = false;
  void stopped.finally(() => {
    over = true;
  });
  while (!over) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return true;
    } catch {
      await sleep(250);
    }
  }
  return false;
}

/** Lines in a frame, so the one-time secrets stand out of the processes' logs. */
export function framed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`].join('\n');
}
