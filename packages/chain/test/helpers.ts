import { readFileSync } from 'node:fs';

/** Sends one JSON-RPC request by hand (no project code, no viem) and returns its result. */
export async function jsonRpc<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

/**
 * An RPC URL nothing listens on: port 2, a privileged port below the range the system hands out
 * (fetch will not even try port 1). A port freed a moment ago could be taken by another suite
 * running on the same machine.
 */
export const REFUSED_RPC_URL = 'http://127.0.0.1:2';

/**
 * How long a test waits for something that should happen: a bound for a hang, sized for a machine
 * running two whole suites at once on two cores, never a speed check.
 */
export const HANG_MS = 120_000;

/** Whether a process runs; a zombie (exited, not yet reaped by its new parent) does not. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Whether `condition` came to hold within `timeoutMs` (a hang bound), checking every 50 ms. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = HANG_MS,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return await condition();
}
