// The claim of a manifest as crJSON writes it: `claim.v2` for C2PA 2 claims (created and gathered
// assertions), `claim` for version 1 (one list of assertions, the asset's format). Only the
// fields the format defines are carried, each with the type it requires.
import { b64, cborToJson, decodeCbor, entry } from './cbor.ts';
import { MalformedManifestStoreError } from './errors.ts';
import type { JsonObject, JsonValue } from './json-value.ts';
import type { StoredManifest } from './manifest-boxes.ts';

export interface ClaimView {
  readonly key: 'claim' | 'claim.v2';
  readonly claim: JsonObject;
  readonly instanceId: string;
}

export function readClaim(manifest: StoredManifest): ClaimView {
  const claim = decodeCbor(manifest.claim, `the claim of ${manifest.label}`);
  const instanceId = entry(claim, 'instanceID');
  if (!(claim instanceof Map) || typeof instanceId !== 'string') {
    throw new MalformedManifestStoreError(`the claim of ${manifest.label} has no instanceID`);
  }
  const signature = text(claim, 'signature') ?? `self#jumbf=/c2pa/${manifest.label}/c2pa.signature`;
  const common: JsonObject = {
    instanceID: instanceId,
    signature,
    ...optionalText(claim, 'dc:title'),
    ...optionalText(claim, 'alg'),
    ...optionalText(claim, 'alg_soft'),
    ...(entry(claim, 'metadata') instanceof Map
      ? { metadata: cborToJson(entry(claim, 'metadata')) }
      : {}),
  };
  const redacted = texts(entry(claim, 'redacted_assertions'));
  const generator = text(claim, 'claim_generator');
  if (manifest.claimVersion === 2) {
    return {
      key: 'claim.v2',
      instanceId,
      claim: {
        ...common,
        claim_generator_info: generatorInfo(entry(claim, 'claim_generator_info'), generator),
        created_assertions: hashedUris(entry(claim, 'created_assertions')),
        gathered_assertions: hashedUris(entry(claim, 'gathered_assertions')),
        // crJSON writes absent redactions of a version 2 claim as an empty list.
        redacted_assertions: redacted,
        ...optionalText(claim, 'specVersion'),
      },
    };
  }
  const infos = Array.isArray(entry(claim, 'claim_generator_info'))
    ? (entry(claim, 'claim_generator_info') as unknown[]).map((info) =>
        generatorInfo(info, generator),
      )
    : [generatorInfo(undefined, generator)];
  return {
    key: 'claim',
    instanceId,
    claim: {
      ...common,
      claim_generator: generator ?? '',
      claim_generator_info: infos,
      // Version 1 URIs are relative to their manifest; crJSON writes them absolute.
      assertions: hashedUris(entry(claim, 'assertions')).map((uri) => ({
        ...uri,
        url: absoluteUri(manifest.label, String(uri.url)),
      })),
      'dc:format': text(claim, 'dc:format') ?? '',
      ...(redacted.length > 0 ? { redacted_assertions: redacted } : {}),
    },
  };
}

function text(map: Map<unknown, unknown>, key: string): string | undefined {
  const value = map.get(key);
  return typeof value === 'string' ? value : undefined;
}

function optionalText(map: Map<unknown, unknown>, key: string): JsonObject {
  const value = text(map, key);
  return value === undefined ? {} : { [key]: value };
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}

/** A generator-info map must name its software; a claim without one is named by its generator. */
function generatorInfo(value: unknown, generator: string | undefined): JsonValue {
  const info = value instanceof Map ? cborToJson(value) : null;
  if (info !== null && typeof info === 'object' && !Array.isArray(info) && 'name' in info) {
    return info;
  }
  return { name: generator ?? 'Unknown' };
}

/** `{ url, hash, alg? }` entries; the hash as crJSON bytes. */
export function hashedUris(value: unknown): JsonObject[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): JsonObject[] => {
    const url = entry(item, 'url');
    const hash = entry(item, 'hash');
    const alg = entry(item, 'alg');
    if (typeof url !== 'string' || !(hash instanceof Uint8Array)) return [];
    return [{ url, hash: b64(hash), ...(typeof alg === 'string' ? { alg } : {}) }];
  });
}

/** `self#jumbf=c2pa.assertions/x` within manifest M is `self#jumbf=/c2pa/M/c2pa.assertions/x`. */
export function absoluteUri(manifest: string, uri: string): string {
  const prefix = 'self#jumbf=';
  if (!uri.startsWith(prefix) || uri.startsWith(`${prefix}/`)) return uri;
  return `${prefix}/c2pa/${manifest}/${uri.slice(prefix.length)}`;
}
