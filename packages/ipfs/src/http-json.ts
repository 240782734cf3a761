import { IpfsError } from './errors.ts';

/**
 * Small readers for the JSON that Kubo and pinning services answer with: a field that is not
 * what it should be is the other side's fault (`ipfs_failed`), never a crash in our code.
 */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new IpfsError('ipfs_failed', `${what} answered with something that is not JSON`, {
      cause: error,
    });
  }
}

export function stringField(value: unknown, key: string, what: string): string {
  const field = isRecord(value) ? value[key] : undefined;
  if (typeof field !== 'string') {
    throw new IpfsError('ipfs_failed', `${what} answered without a string "${key}"`);
  }
  return field;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** HTTP statuses of a proxy or load balancer whose backend is down: the service is unreachable. */
export function isGatewayFailure(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

/** `fetch` rejects only when no answer came (refused, reset, DNS, timeout). */
export function unreachable(what: string, error: unknown): IpfsError {
  const reason =
    error instanceof Error && error.name === 'TimeoutError'
      ? 'timed out'
      : error instanceof Error && error.cause instanceof Error
        ? error.cause.message
        : String(error);
  return new IpfsError('ipfs_unreachable', `${what}: ${reason}`, { cause: error });
}
