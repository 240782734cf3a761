import { readFile } from 'node:fs/promises';
import type { Hex } from 'viem';

/** The order of secp256k1: a private key must be in [1, n-1]. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A refused minter key. The message names where the key came from, never the key itself. */
export class MinterKeyError extends Error {
  readonly code = 'invalid_minter_key';

  constructor(message: string) {
    super(message);
    this.name = 'MinterKeyError';
  }
}

/**
 * Reads the minter's private key (64 hex digits, `0x` optional, surrounding whitespace ignored)
 * from a file or from an environment variable's value. Exactly one source must be given, so a
 * forgotten variable never silently overrides the file an operator meant (or the other way round).
 */
export async function loadMinterKey(source: { file?: string; env?: string }): Promise<Hex> {
  const hasFile = Boolean(source.file);
  const hasEnv = Boolean(source.env?.trim());
  if (hasFile && hasEnv) {
    throw new MinterKeyError('minter key given both as a file and in the environment; give one');
  }
  if (source.file) {
    let text: string;
    try {
      text = await readFile(source.file, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new MinterKeyError(`cannot read the minter key file ${source.file} (${reason})`);
    }
    return parseMinterKey(text, `file ${source.file}`);
  }
  if (source.env) return parseMinterKey(source.env, 'the environment');
  throw new MinterKeyError('no minter key: give a key file or set it in the environment');
}

/** Validates a private key's text; `origin` only says where it came from in error messages. */
export function parseMinterKey(text: string, origin = 'input'): Hex {
  const digits = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) {
    throw new MinterKeyError(`the minter key from ${origin} is not 32 bytes of hex`);
  }
  const value = BigInt(`0x${digits}`);
  if (value === 0n || value >= SECP256K1_ORDER) {
    throw new MinterKeyError(`the minter key from ${origin} is not a valid secp256k1 key`);
  }
  return `0x${digits.toLowerCase()}`;
}
