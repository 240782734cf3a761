/**
 * The PostgreSQL server did not answer (refused, unknown host, timed out). Kept apart from every
 * other database error so start-up can say "is Postgres running at host:port?" instead of a stack.
 */
export class DatabaseUnreachableError extends Error {
  override readonly name = 'DatabaseUnreachableError';
  /** `host:port` that was tried. */
  readonly address: string;

  constructor(address: string, options?: ErrorOptions) {
    super(`Cannot reach PostgreSQL at ${address}: is the server running?`, options);
    this.address = address;
  }
}

// Socket-level failures: the server never got to speak. Authentication or a missing database are
// different problems and keep their own errors.
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

export function isUnreachableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // Node tries every address of a host name (IPv6 and IPv4) and reports an AggregateError.
  if (error instanceof AggregateError && error.errors.some(isUnreachableError)) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && unreachableCodes.has(code)) return true;
  // pg's own connectionTimeoutMillis error carries no code.
  return /timeout expired|connection timeout/i.test(error.message);
}
