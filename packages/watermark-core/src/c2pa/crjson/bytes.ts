// Bounds-checked reads for walking untrusted containers: a length or offset that points outside
// the bytes is a malformed store, reported as such, never a RangeError from a DataView.
import { MalformedManifestStoreError } from './errors.ts';

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function within(bytes: Uint8Array, at: number, length: number, what: string): void {
  if (!Number.isSafeInteger(at) || at < 0 || at + length > bytes.length) {
    throw new MalformedManifestStoreError(`${what} runs past the end of its data`);
  }
}

export function uint8(bytes: Uint8Array, at: number, what: string): number {
  within(bytes, at, 1, what);
  return bytes[at] ?? 0;
}

export function uint16(bytes: Uint8Array, at: number, what: string, littleEndian = false): number {
  within(bytes, at, 2, what);
  return view(bytes).getUint16(at, littleEndian);
}

export function uint32(bytes: Uint8Array, at: number, what: string, littleEndian = false): number {
  within(bytes, at, 4, what);
  return view(bytes).getUint32(at, littleEndian);
}

/** A 64-bit length; anything past 2^53 cannot fit in memory and is refused as malformed. */
export function uint64(bytes: Uint8Array, at: number, what: string): number {
  within(bytes, at, 8, what);
  const value = view(bytes).getBigUint64(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MalformedManifestStoreError(`${what} declares an impossible length`);
  }
  return Number(value);
}

export function slice(bytes: Uint8Array, at: number, length: number, what: string): Uint8Array {
  within(bytes, at, length, what);
  return bytes.subarray(at, at + length);
}

/** Four bytes as ASCII: box, chunk and marker types. */
export function fourCc(bytes: Uint8Array, at: number, what: string): string {
  return String.fromCharCode(...slice(bytes, at, 4, what));
}

export function startsWith(bytes: Uint8Array, at: number, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[at + index] === byte);
}
