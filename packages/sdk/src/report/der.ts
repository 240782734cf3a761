// A reader of DER (X.690) just large enough for X.509 certificates: tag, length, value, with every
// length checked against what is left, so a crafted certificate is refused, never over-read.

export interface DerElement {
  readonly tag: number;
  /** The value's bytes. */
  readonly value: Uint8Array;
  /** The whole element, tag and length included: what a signature covers. */
  readonly encoded: Uint8Array;
}

export const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

export class DerError extends Error {
  override readonly name = 'DerError';
}

/** Reads one element at `offset`; `end` bounds it. */
export function readElement(bytes: Uint8Array, offset = 0, end = bytes.length): DerElement {
  if (offset + 2 > end) throw new DerError('truncated element');
  const tag = bytes[offset] as number;
  // High tag numbers (0x1f) never occur in the structures read here.
  if ((tag & 0x1f) === 0x1f) throw new DerError('unsupported tag');
  let length = bytes[offset + 1] as number;
  let header = 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    // DER: no indefinite lengths, and no certificate needs more than four length octets.
    if (octets === 0 || octets > 4 || offset + 2 + octets > end) {
      throw new DerError('bad length');
    }
    length = 0;
    for (let index = 0; index < octets; index += 1) {
      length = length * 256 + (bytes[offset + 2 + index] as number);
    }
    header += octets;
  }
  const start = offset + header;
  if (start + length > end) throw new DerError('length past the end');
  return {
    tag,
    value: bytes.subarray(start, start + length),
    encoded: bytes.subarray(offset, start + length),
  };
}

/** The elements inside a constructed value (a SEQUENCE or SET), in order. */
export function children(element: DerElement): DerElement[] {
  const items: DerElement[] = [];
  let offset = 0;
  while (offset < element.value.length) {
    const item = readElement(element.value, offset);
    items.push(item);
    offset += item.encoded.length;
  }
  return items;
}

export function expectTag(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (element === undefined || element.tag !== tag) throw new DerError(`${what} missing`);
  return element;
}

/** Dotted form of an OBJECT IDENTIFIER's value. */
export function oidOf(element: DerElement): string {
  const bytes = expectTag(element, TAG.oid, 'object identifier').value;
  if (bytes.length === 0) throw new DerError('empty object identifier');
  const first = bytes[0] as number;
  const arc = Math.min(2, Math.floor(first / 40));
  const parts = [arc, first - arc * 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** UTCTime or GeneralizedTime in UTC, as RFC 5280 and RFC 3161 write them. */
export function timeOf(element: DerElement): Date {
  const text = new TextDecoder().decode(element.value);
  const match =
    element.tag === TAG.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : element.tag === TAG.generalizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text)
        : null;
  if (match === null) throw new DerError('bad time');
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = match.slice(1, 7).map(Number);
  // RFC 5280 section 4.1.2.5.1: two-digit years 50-99 are 19xx.
  const year = element.tag === TAG.utcTime ? (y >= 50 ? 1900 : 2000) + y : y;
  // Time-stamps (RFC 3161) may give fractions of a second.
  const milliseconds = Math.floor(Number(`0.${match[7] ?? '0'}`) * 1000);
  return new Date(Date.UTC(year, mo - 1, d, h, mi, s, milliseconds));
}

/** The bytes of a BIT STRING without unused bits (keys and signatures). */
export function bitStringBytes(element: DerElement): Uint8Array {
  const value = expectTag(element, TAG.bitString, 'bit string').value;
  if (value.length === 0 || value[0] !== 0) throw new DerError('bit string with unused bits');
  return value.subarray(1);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}
