import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooLowError,
  SocketClosedError,
  TimeoutError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';

/**
 * Stable codes a failed chain call is reduced to, so a job can record *why* a mint failed without
 * depending on viem's error classes or a node's wording.
 */
export type ChainErrorCode =
  /** The minter cannot pay the gas. An operator can top the wallet up, so retrying helps. */
  | 'insufficient_funds'
  /** The contract refused the call (e.g. the key is not the minter) or the mint reverted on chain. */
  | 'mint_reverted'
  /** No answer from the RPC endpoint: refused, timed out, or a 5xx/429. */
  | 'rpc_unreachable'
  /** The mint was sent but no receipt came within the wait; it may still be mined. */
  | 'mint_timeout'
  /** The signed mint can never be mined: another transaction used its nonce. Sign a new one. */
  | 'nonce_conflict'
  /** The configuration does not match the chain (wrong chain id, no contract, refused credentials). */
  | 'misconfigured'
  /** The node answered with an error none of the above describes. */
  | 'rpc_error';

/**
 * Whether another attempt can succeed without a change of code or configuration. A revert is
 * deterministic for the same call, so it fails at once; insufficient funds is retryable because an
 * operator can fund the wallet while the job backs off, and a retry re-sends the same signed mint.
 */
const RETRYABLE: Record<ChainErrorCode, boolean> = {
  insufficient_funds: true,
  mint_reverted: false,
  rpc_unreachable: true,
  mint_timeout: true,
  nonce_conflict: true,
  misconfigured: false,
  rpc_error: true,
};

export class ChainError extends Error {
  readonly code: ChainErrorCode;
  readonly retryable: boolean;

  constructor(code: ChainErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainError';
    this.code = code;
    this.retryable = RETRYABLE[code];
  }
}

/** HTTP statuses that mean the endpoint is reachable but refuses this client: retrying won't help. */
const REFUSED_STATUSES = new Set([401, 403, 404]);

function find<T extends Error>(
  error: BaseError,
  type: abstract new (...args: never[]) => T,
): T | null {
  return error.walk((cause) => cause instanceof type) as T | null;
}

/**
 * Every message in the cause chain. Raw-transaction broadcasts come back as plain RPC errors (viem
 * only maps node errors for the calls it builds itself), so some causes are only in the wording.
 */
function wordingOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth += 1) {
    parts.push(current.message);
    if (current instanceof BaseError && current.details) parts.push(current.details);
    current = current.cause;
  }
  return parts.join('\n');
}

/** viem's short message plus the node's own words, which say what actually went wrong. */
function summaryOf(error: unknown): string {
  if (error instanceof BaseError) {
    const details = error.details?.trim();
    return details && details !== error.shortMessage
      ? `${error.shortMessage} (${details})`
      : error.shortMessage;
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/** Reduces any error thrown by a chain call to a `ChainError`; one already classified is kept. */
export function classifyChainError(error: unknown): ChainError {
  if (error instanceof ChainError) return error;
  const wording = wordingOf(error);
  const summary = summaryOf(error);

  if (error instanceof BaseError) {
    if (find(error, InsufficientFundsError)) {
      return new ChainError('insufficient_funds', summary, { cause: error });
    }
    const revert = find(error, ContractFunctionRevertedError);
    if (revert) {
      const reason = revert.data?.errorName ?? revert.reason ?? 'no reason given';
      return new ChainError('mint_reverted', `contract reverted: ${reason}`, { cause: error });
    }
    if (find(error, ExecutionRevertedError)) {
      return new ChainError('mint_reverted', summary, { cause: error });
    }
    if (find(error, WaitForTransactionReceiptTimeoutError)) {
      return new ChainError('mint_timeout', summary, { cause: error });
    }
    if (find(error, NonceTooLowError)) {
      return new ChainError('nonce_conflict', summary, { cause: error });
    }
    const http = find(error, HttpRequestError);
    if (http?.status !== undefined && REFUSED_STATUSES.has(http.status)) {
      return new ChainError('misconfigured', `RPC endpoint refused: ${summary}`, { cause: error });
    }
    if (http || find(error, TimeoutError) || find(error, SocketClosedError)) {
      return new ChainError('rpc_unreachable', summary, { cause: error });
    }
  }
  if (/insufficient funds/i.test(wording)) {
    return new ChainError('insufficient_funds', summary, { cause: error });
  }
  if (/nonce too low|nonce has already been used/i.test(wording)) {
    return new ChainError('nonce_conflict', summary, { cause: error });
  }
  if (/execution reverted/i.test(wording)) {
    return new ChainError('mint_reverted', summary, { cause: error });
  }
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|fetch failed/i.test(wording)) {
    return new ChainError('rpc_unreachable', summary, { cause: error });
  }
  return new ChainError('rpc_error', summary, { cause: error });
}
