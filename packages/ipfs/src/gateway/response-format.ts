/** What the client asked for: the raw block (trustless), or the content itself (deserialized). */
export type ResponseFormat = { readonly kind: 'raw' } | { readonly kind: 'content' };

export type FormatChoice =
  | ResponseFormat
  | { readonly kind: 'unsupported'; readonly asked: string };

export const RAW_BLOCK_TYPE = 'application/vnd.ipld.raw';

/** Trustless types this gateway does not produce (CAR streams, IPNS records). */
const UNSERVED_TYPES = new Set(['application/vnd.ipld.car', 'application/vnd.ipfs.ipns-record']);

/**
 * Picks the response format as the gateway specs say: the `format` query parameter wins over
 * `Accept`; `format=raw` or an acceptable `application/vnd.ipld.raw` gives the raw block. A
 * client that accepts only formats we do not produce (a CAR-only client) is told so rather than
 * handed a body it cannot parse.
 */
export function chooseFormat(accept: string | undefined, format: string | undefined): FormatChoice {
  if (format !== undefined && format !== '') {
    return format === 'raw' ? { kind: 'raw' } : { kind: 'unsupported', asked: `format=${format}` };
  }
  const accepted = acceptedTypes(accept ?? '');
  if (accepted.includes(RAW_BLOCK_TYPE)) return { kind: 'raw' };
  if (accepted.length > 0 && accepted.every((type) => UNSERVED_TYPES.has(type))) {
    return { kind: 'unsupported', asked: accepted.join(', ') };
  }
  return { kind: 'content' };
}

/** Media types of an Accept header, lower-cased, without those refused with `q=0`. */
function acceptedTypes(accept: string): string[] {
  return accept
    .split(',')
    .map((item) => item.split(';').map((part) => part.trim().toLowerCase()))
    .filter(([type, ...params]) => type !== undefined && type !== '' && !params.some(isZeroQuality))
    .map(([type]) => type ?? '');
}

function isZeroQuality(param: string): boolean {
  const match = /^q\s*=\s*([0-9.]+)$/.exec(param);
  return match?.[1] !== undefined && Number(match[1]) === 0;
}
