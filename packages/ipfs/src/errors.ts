/**
 * Stable codes of every failure this package reports. Callers branch on `code`, never on the
 * message: the worker turns them into job error codes, the gateway into HTTP statuses.
 */
export type IpfsErrorCode =
  /** The Kubo RPC endpoint or the pinning service could not be reached (down, timeout, 502-504). */
  | 'ipfs_unreachable'
  /** No block for the CID in the node, or no entry at the path under it. */
  | 'ipfs_not_found'
  /** Not a CID, or a CID of a codec this package does not read. */
  | 'invalid_cid'
  /** A path or directory entry name that cannot name a file (empty, `..`, `/` inside a name). */
  | 'invalid_path'
  /** The pinning service reported the pin as failed. */
  | 'pin_failed'
  /** Anything else the node or service answered with; the message carries its words. */
  | 'ipfs_failed';

export class IpfsError extends Error {
  readonly code: IpfsErrorCode;

  constructor(code: IpfsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'IpfsError';
  }
}

export function isIpfsError(error: unknown, code?: IpfsErrorCode): error is IpfsError {
  return error instanceof IpfsError && (code === undefined || error.code === code);
}
