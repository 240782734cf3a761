// The mark's 64-bit payload: an identifier the service maps to a file's record. It is a bigint in
// [0, 2^64); its text form is exactly 16 lowercase hex digits.

/**
 * Algorithm identifier for the C2PA soft-binding assertion (`c2pa.soft-binding`) and the Soft
 * Binding Resolution API: a provisional reverse-domain name until the algorithm is registered in
 * the C2PA soft binding algorithm list. Version 3 (a polar code, one coded bit per message chip)
 * replaced version 2 (a convolutional code on 2-3 chips per bit), which had replaced version 1
 * (CRC-32), before any release; earlier versions are not read.
 */
export const INVISIBLE_MARK_ALGORITHM = 'dev.hallmark.invisible.3';
/**
 * The soft binding's `alg-params`: how a block's value reads back as the payload, for a resolver
 * that knows the algorithm but not Hallmark.
 */
export const INVISIBLE_MARK_PARAMETERS = 'payload=64-bit unsigned integer;value=8 bytes big-endian';

/** A 64-bit unsigned integer carried by the mark. */
export type MarkPayload = bigint;

const MAX_PAYLOAD = (1n << 64n) - 1n;

export function assertPayload(payload: MarkPayload): void {
  if (typeof payload !== 'bigint' || payload < 0n || payload > MAX_PAYLOAD) {
    throw new RangeError(`payload must be a bigint in [0, 2^64), got ${String(payload)}`);
  }
}

/** 16 lowercase hex digits, e.g. `00ff00ff00ff00ff`. */
export function payloadToHex(payload: MarkPayload): string {
  assertPayload(payload);
  return payload.toString(16).padStart(16, '0');
}

/** Parses exactly 16 hex digits (either case). */
export function payloadFromHex(hex: string): MarkPayload {
  if (!/^[0-9a-fA-F]{16}$/.test(hex)) {
    throw new RangeError(`payload must be 16 hex digits, got "${hex}"`);
  }
  return BigInt(`0x${hex}`);
}
