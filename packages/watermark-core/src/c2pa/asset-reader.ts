// One place that opens an asset with c2pa-node's Reader and sorts out its three outcomes: no
// manifest, a manifest (valid or not), or an error. c2pa-node names its errors after the Rust
// variant (`C2pa(InvalidAsset(...))`): an invalid asset means the image itself does not parse;
// any other error means a manifest is there but cannot be decoded.
import { open } from 'node:fs/promises';
import { Reader } from '@contentauth/c2pa-node';
import { UnreadableImageError } from './errors.ts';
import type { ResourceReader } from './ingredient-thumbnails.ts';

export interface BufferAsset {
  readonly buffer: Buffer;
  readonly mimeType: string;
}

/** A file c2pa-node reads and writes through its own buffered streams, never whole in memory. */
export interface FileAsset {
  readonly path: string;
  readonly mimeType: string;
}

export type SourceAsset = BufferAsset | FileAsset;

export type OpenedAsset =
  | { readonly kind: 'none' }
  | { readonly kind: 'manifest'; readonly store: unknown; readonly readResource: ResourceReader }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * The start of a C2PA manifest store's JUMBF description box: its type, then the store's UUID
 * (63327061-0011-0010-8000-00AA00389B71, whose first four bytes spell "c2pa").
 */
const STORE_DESCRIPTION = Buffer.from([
  0x6a, 0x75, 0x6d, 0x64, 0x63, 0x32, 0x70, 0x61, 0x00, 0x11, 0x00, 0x10,
]);

/**
 * A store the reader found no manifest in although the file holds one: a crafted box length
 * (an extended length of a terabyte) makes the reader skip it. That is a manifest that cannot be
 * read, never an image without provenance.
 */
async function declaresManifestStore(asset: SourceAsset): Promise<boolean> {
  if ('buffer' in asset) return asset.buffer.indexOf(STORE_DESCRIPTION) >= 0;
  // A file is scanned through one reused buffer whose first bytes carry the tail of the chunk
  // before, so a description split between two chunks is still found: memory stays at one
  // chunk however large the file (a stream's fresh buffer per chunk piles up until a GC).
  const overlap = STORE_DESCRIPTION.length - 1;
  const window = Buffer.alloc(SCAN_CHUNK_BYTES + overlap);
  const file = await open(asset.path, 'r');
  try {
    let kept = 0;
    for (;;) {
      const { bytesRead } = await file.read(window, kept, SCAN_CHUNK_BYTES, null);
      if (bytesRead === 0) return false;
      const filled = kept + bytesRead;
      if (window.subarray(0, filled).indexOf(STORE_DESCRIPTION) >= 0) return true;
      kept = Math.min(overlap, filled);
      window.copyWithin(0, filled - kept, filled);
    }
  } finally {
    await file.close();
  }
}

const SCAN_CHUNK_BYTES = 1 << 20;

const UNLOCATED = 'the file holds a C2PA manifest store, but its boxes could not be followed to it';

/** Throws UnreadableImageError when the container itself cannot be parsed. */
export async function openAsset(asset: SourceAsset, settings: object): Promise<OpenedAsset> {
  let reader: Reader | null;
  try {
    reader = await Reader.fromAsset(sourceOf(asset), settings);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    if (/^C2pa\((InvalidAsset|UnsupportedType)\b/.test(name)) {
      throw new UnreadableImageError(message, { cause: error });
    }
    return { kind: 'unreadable', reason: message };
  }
  if (reader !== null) return opened(reader);
  return (await declaresManifestStore(asset))
    ? { kind: 'unreadable', reason: UNLOCATED }
    : { kind: 'none' };
}

/**
 * Opens a detached manifest store (a `.c2pa` sidecar) against an asset: the store validates on
 * its own (signature, certificates), and its hard binding is checked against these bytes.
 */
export async function openStoreWithAsset(
  store: Buffer,
  asset: SourceAsset,
  settings: object,
): Promise<OpenedAsset> {
  try {
    const reader = await Reader.fromManifestDataAndAsset(store, sourceOf(asset), settings);
    return opened(reader);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    if (/^C2pa\((InvalidAsset|UnsupportedType)\b/.test(name)) {
      throw new UnreadableImageError(message, { cause: error });
    }
    return { kind: 'unreadable', reason: message };
  }
}

function opened(reader: Reader): OpenedAsset {
  return {
    kind: 'manifest',
    store: reader.json(),
    readResource: async (identifier) =>
      (await reader.resourceToAsset(identifier, { buffer: null })).buffer,
  };
}

/** The asset as c2pa-node's (mutable) asset types take it, without any other field. */
export function sourceOf(asset: SourceAsset): BufferAsset | { path: string; mimeType: string } {
  return 'buffer' in asset
    ? { buffer: asset.buffer, mimeType: asset.mimeType }
    : { path: asset.path, mimeType: asset.mimeType };
}

/** A zero-copy Buffer view: c2pa-node takes Buffers, callers hold plain Uint8Arrays. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
