// RFC 7512 PKCS#11 URIs: which module, token and key to sign with, and where the PIN comes from.
// Only the attributes a signer needs are understood; an unknown one is an error, so a typo never
// silently selects another key.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SignerConfigurationError } from '../errors.ts';

export interface Pkcs11Location {
  /** The PKCS#11 module (shared library) to load. */
  readonly modulePath: string;
  /** Token label; the first token holding the key when absent. */
  readonly token: string | undefined;
  /** The key's label (CKA_LABEL). */
  readonly object: string | undefined;
  /** The key's identifier (CKA_ID), raw bytes. */
  readonly id: Uint8Array | undefined;
  /** The user PIN: from `pin-value`, or read from `pin-source` when the URI is parsed. */
  readonly pin: string | undefined;
}

const PATH_ATTRIBUTES = new Set([
  'token',
  'object',
  'id',
  'type',
  'manufacturer',
  'model',
  'serial',
]);
const QUERY_ATTRIBUTES = new Set(['module-path', 'pin-value', 'pin-source']);

/**
 * Parses `pkcs11:token=...;object=...?module-path=...&pin-source=file:...`. `variable` names the
 * setting in errors. A `pin-source` file is read now: a missing file fails start-up, not a job.
 */
export function parsePkcs11Uri(uri: string, variable: string): Pkcs11Location {
  const fail = (why: string): never => {
    throw new SignerConfigurationError(`${variable}: ${why}`);
  };
  if (!uri.startsWith('pkcs11:')) fail('a PKCS#11 URI starts with "pkcs11:" (RFC 7512)');
  const [path = '', query = ''] = uri.slice('pkcs11:'.length).split('?', 2);
  const attributes = new Map<string, Buffer>();
  const take = (part: string, allowed: Set<string>, where: string) => {
    if (part === '') return;
    const equals = part.indexOf('=');
    if (equals <= 0) fail(`"${part}" is not an attribute=value pair`);
    const name = part.slice(0, equals);
    if (!allowed.has(name)) fail(`unknown ${where} attribute "${name}"`);
    if (attributes.has(name)) fail(`"${name}" is given twice`);
    attributes.set(name, percentDecoded(part.slice(equals + 1)));
  };
  for (const part of path.split(';')) take(part, PATH_ATTRIBUTES, 'path');
  for (const part of query.split('&')) take(part, QUERY_ATTRIBUTES, 'query');
  const text = (name: string) => attributes.get(name)?.toString('utf8');

  const type = text('type');
  if (type !== undefined && type !== 'private')
    fail(`type=${type}: the signer needs the private key`);
  const modulePath = text('module-path') ?? fail('module-path is required');
  const object = text('object');
  const id = attributes.get('id');
  if (object === undefined && id === undefined) fail('name the key with object= or id=');
  if (attributes.has('pin-value') && attributes.has('pin-source')) {
    fail('give pin-value or pin-source, not both');
  }
  const source = text('pin-source');
  return {
    modulePath,
    token: text('token'),
    object,
    id,
    pin: source === undefined ? text('pin-value') : readPin(source, fail),
  };
}

/** RFC 7512 values are percent-encoded bytes (UTF-8 for the text attributes, raw for `id`). */
function percentDecoded(value: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value.slice(i + 1, i + 3);
    if (value[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(value[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** `pin-source` is a file (a path or a file: URI); its first line is the PIN. */
function readPin(source: string, fail: (why: string) => never): string {
  const path = source.startsWith('file:') ? fileURLToPath(source) : source;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`pin-source ${path} cannot be read (${(error as Error).message})`);
  }
  return text.split(/\r?\n/, 1)[0] ?? '';
}
