// CBOR through cborg: pure JavaScript (nothing native for the CLI's installers to build), strict
// about malformed input, and already in the workspace's tree. Maps are decoded as Maps because
// COSE keys its headers by integers; every tag is kept as Tagged (COSE_Sign1 is tag 18) rather
// than refused, since an assertion may carry tags this reader has no meaning for.
import { decode, Tagged } from 'cborg';
import { MalformedManifestStoreError } from './errors.ts';
import type { JsonValue } from './json-value.ts';

export { Tagged };

const preserveEveryTag = new Proxy(
  {},
  { get: (_target, tag) => (typeof tag === 'string' ? Tagged.decoder(Number(tag)) : undefined) },
);

/** Throws MalformedManifestStoreError for bytes that are not exactly one CBOR item. */
export function decodeCbor(bytes: Uint8Array, what: string): unknown {
  try {
    return decode(bytes, { useMaps: true, tags: preserveEveryTag as never });
  } catch (error) {
    // A deeply nested item exhausts the decoder's recursion (RangeError): malformed as well.
    const reason = error instanceof Error ? error.message : String(error);
    throw new MalformedManifestStoreError(`${what} is not valid CBOR (${reason})`, {
      cause: error,
    });
  }
}

/**
 * crJSON's writing of a byte string: base64 between `b64'` and `'`, so that a reader tells bytes
 * from text.
 */
export function b64(bytes: Uint8Array): string {
  return `b64'${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64')}'`;
}

/** Assertions nest a few levels; deeper items are refused rather than walked. */
const MAX_JSON_DEPTH = 64;

/** A decoded CBOR item as JSON: byte strings as b64'...', map keys as text, tags by their content. */
export function cborToJson(value: unknown, depth = 0): JsonValue {
  if (depth > MAX_JSON_DEPTH) throw new MalformedManifestStoreError('a CBOR item nests too deeply');
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Uint8Array) return b64(value);
  if (value instanceof Tagged) return cborToJson(value.value, depth + 1);
  if (Array.isArray(value)) return value.map((item) => cborToJson(item, depth + 1));
  if (value instanceof Map) {
    const object: { [key: string]: JsonValue } = {};
    for (const [key, entry] of value) {
      Object.defineProperty(object, String(key), {
        value: cborToJson(entry, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  return null;
}

/** The entry of a CBOR map under a text key (claims and assertions are keyed by text). */
export function entry(map: unknown, key: string | number): unknown {
  return map instanceof Map ? map.get(key) : undefined;
}
