import { equals } from 'multiformats/bytes';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { identity } from 'multiformats/hashes/identity';
import { sha256 } from 'multiformats/hashes/sha2';
import { IpfsError } from './errors.ts';

/**
 * JSON documents are stored with the plain `json` codec (0x0200), not `dag-json`: a gateway
 * serves a `json` block as `application/json` (what marketplaces and browsers expect of NFT
 * metadata), and our documents hold no links that dag-json would be needed for. The bytes are
 * `JSON.stringify` output, so the key order of the value is part of its identity: the record
 * builders fix that order.
 */
export const jsonCodec = json;

/** UnixFS directories and large files are dag-pb (0x70); small files are single raw leaves. */
export const DAG_PB_CODE = 0x70;
export const RAW_CODE = raw.code;

/** Parses a CID as a client writes it (CIDv1 base32 `b…`, or CIDv0 `Qm…`). */
export function parseCid(text: string): CID {
  try {
    return CID.parse(text);
  } catch (error) {
    throw new IpfsError('invalid_cid', `not a CID: ${JSON.stringify(text.slice(0, 100))}`, {
      cause: error,
    });
  }
}

/** The exact bytes `addJson` stores for a value. */
export function encodeJson(value: unknown): Uint8Array {
  // JSON.stringify answers undefined (not a string) for undefined, functions and symbols.
  if (JSON.stringify(value) === undefined) throw new TypeError('value cannot be written as JSON');
  return jsonCodec.encode(value);
}

/** CIDv1, json codec, sha2-256 of the bytes: what any IPFS implementation derives for them. */
export async function jsonCidOf(bytes: Uint8Array): Promise<CID> {
  return CID.create(1, jsonCodec.code, await sha256.digest(bytes));
}

/**
 * Checks that the bytes are the block the CID names, so the gateway never serves a block that
 * does not hash to its CID (a half-written file, disk corruption, a confused Kubo). Hashes other
 * than sha2-256 and identity are never produced here and pass unchecked; trustless clients check
 * every block themselves anyway.
 */
export async function assertBlockMatches(cid: CID, bytes: Uint8Array): Promise<void> {
  const { code, digest } = cid.multihash;
  let matches = true;
  if (code === sha256.code) {
    matches = equals((await sha256.digest(bytes)).digest, digest);
  } else if (code === identity.code) {
    matches = equals(bytes, digest);
  }
  if (!matches) throw new IpfsError('ipfs_failed', `block ${cid} does not hash to its CID`);
}

/** `getJson` reads only `json`-codec blocks: anything else is not one of our documents. */
export function assertJsonCid(cid: CID): void {
  if (cid.code !== jsonCodec.code) {
    throw new IpfsError(
      'invalid_cid',
      `${cid} is not a JSON document (codec 0x${cid.code.toString(16)})`,
    );
  }
}
