// One place that opens an asset with c2pa-node's Reader and sorts out its three outcomes: no
// manifest, a manifest (valid or not), or an error. c2pa-node names its errors after the Rust
// variant (`C2pa(InvalidAsset(...))`): an invalid asset means the image itself does not parse;
// any other error means a manifest is there but cannot be decoded.
import { Reader } from '@contentauth/c2pa-node';
import { UnreadableImageError } from './errors.ts';

export interface BufferAsset {
  readonly buffer: Buffer;
  readonly mimeType: string;
}

export type OpenedAsset =
  | { readonly kind: 'none' }
  | { readonly kind: 'manifest'; readonly store: unknown }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Throws UnreadableImageError when the image itself cannot be parsed. */
export async function openAsset(asset: BufferAsset, settings: object): Promise<OpenedAsset> {
  let reader: Reader | null;
  try {
    reader = await Reader.fromAsset({ buffer: asset.buffer, mimeType: asset.mimeType }, settings);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    if (/^C2pa\((InvalidAsset|UnsupportedType)\b/.test(name)) {
      throw new UnreadableImageError(message, { cause: error });
    }
    return { kind: 'unreadable', reason: message };
  }
  return reader === null ? { kind: 'none' } : { kind: 'manifest', store: reader.json() };
}

/**
 * Opens a detached manifest store (a `.c2pa` sidecar) against an asset: the store validates on
 * its own (signature, certificates), and its hard binding is checked against these bytes.
 */
export async function openStoreWithAsset(
  store: Buffer,
  asset: BufferAsset,
  settings: object,
): Promise<OpenedAsset> {
  try {
    const reader = await Reader.fromManifestDataAndAsset(
      store,
      { buffer: asset.buffer, mimeType: asset.mimeType },
      settings,
    );
    return { kind: 'manifest', store: reader.json() };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    if (/^C2pa\((InvalidAsset|UnsupportedType)\b/.test(name)) {
      throw new UnreadableImageError(message, { cause: error });
    }
    return { kind: 'unreadable', reason: message };
  }
}

/** A zero-copy Buffer view: c2pa-node takes Buffers, callers hold plain Uint8Arrays. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
