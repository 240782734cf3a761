// A manifest's assertions keyed by label (with its instance suffix): CBOR and JSON assertions by
// their content, byte strings written the crJSON way; embedded files (thumbnails) and anything
// this reader cannot decode by reference: media type, URI and hash.
import { createHash } from 'node:crypto';
import { b64, cborToJson, decodeCbor } from './cbor.ts';
import { CrJsonError } from './errors.ts';
import type { JsonObject, JsonValue } from './json-value.ts';
import type { StoredAssertion, StoredManifest } from './manifest-boxes.ts';

export function readAssertions(manifest: StoredManifest): JsonObject {
  const assertions: JsonObject = {};
  for (const assertion of manifest.assertions) {
    if (Object.hasOwn(assertions, assertion.label)) continue;
    Object.defineProperty(assertions, assertion.label, {
      value: contentOf(assertion) ?? reference(manifest.label, assertion),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return assertions;
}

/** Null when the content cannot be decoded: c2pa-node's validation says what is wrong with it. */
function contentOf(assertion: StoredAssertion): JsonValue | null {
  const { content } = assertion;
  try {
    if (content.kind === 'cbor') return cborToJson(decodeCbor(content.bytes, assertion.label));
    if (content.kind === 'json') {
      return JSON.parse(
        new TextDecoder('utf-8', { fatal: true }).decode(content.bytes),
      ) as JsonValue;
    }
  } catch (error) {
    // A decoding failure (our typed error, a SyntaxError, a deep JSON's RangeError) is kept to
    // this assertion; anything else is a fault of this code and must surface.
    if (
      error instanceof CrJsonError ||
      error instanceof SyntaxError ||
      error instanceof RangeError
    ) {
      return null;
    }
    throw error;
  }
  return null;
}

function reference(manifest: string, assertion: StoredAssertion): JsonObject {
  const hash = createHash('sha256').update(assertion.hashedBytes).digest();
  return {
    ...(assertion.content.kind === 'binary' && assertion.content.mediaType !== null
      ? { format: assertion.content.mediaType }
      : {}),
    identifier: `self#jumbf=/c2pa/${manifest}/c2pa.assertions/${assertion.label}`,
    hash: b64(hash),
  };
}
