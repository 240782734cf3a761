// The thumbnails a manifest store keeps of its ingredients (the earlier versions of a picture),
// read so a verifier can show the edit history as pictures. The store is the file's, so anyone
// can put anything there: only the first few, small, real raster images are taken, each checked
// by its magic bytes, and only from inside the store itself.
import { type ImageFormatName, mimeTypeOf, sniffImageFormat } from '@hallmark/schemas';
import { asRecord, asString, type JsonRecord } from './json-view.ts';

/** A thumbnail larger than this is left off, never cut: a cut image would not decode. */
export const MAX_THUMBNAIL_BYTES = 64 * 1024;
/** At most this many ingredients, in history order (newest first), carry a thumbnail. */
export const MAX_THUMBNAILS = 8;

/** Formats every browser draws and none runs script in (SVG is refused). */
const THUMBNAIL_FORMATS: readonly ImageFormatName[] = ['jpeg', 'png', 'webp'];
/** Resources of the store itself; any other scheme would point outside the file. */
const IN_STORE = 'self#jumbf=';

export type ThumbnailMimeType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface IngredientThumbnail {
  readonly mimeType: ThumbnailMimeType;
  readonly bytes: Uint8Array;
}

/** Where an ingredient's thumbnail is in the store, as c2pa-node's JSON names it. */
export interface ThumbnailReference {
  readonly format: string;
  readonly identifier: string;
}

/** Reads one resource of the opened store by its identifier. */
export type ResourceReader = (identifier: string) => Promise<Uint8Array>;

/**
 * The ingredient's `thumbnail` when it names a resource inside the store in a format shown;
 * else undefined (such a thumbnail is never read, so it takes no place among the first few).
 */
export function thumbnailReferenceOf(ingredient: JsonRecord): ThumbnailReference | undefined {
  const thumbnail = asRecord(ingredient.thumbnail);
  const declared = asString(thumbnail?.format);
  const identifier = asString(thumbnail?.identifier);
  const format = declared === undefined ? undefined : shownMimeType(declared);
  if (format === undefined || identifier === undefined || !identifier.startsWith(IN_STORE)) {
    return undefined;
  }
  return { format, identifier };
}

/**
 * Reads the first MAX_THUMBNAILS distinct references (in the order given) and keeps those that
 * are a bounded image of the format they declare, by identifier.
 */
export async function loadThumbnails(
  references: readonly ThumbnailReference[],
  read: ResourceReader,
): Promise<ReadonlyMap<string, IngredientThumbnail>> {
  const wanted = new Map<string, string>();
  for (const reference of references) {
    if (wanted.size >= MAX_THUMBNAILS) break;
    if (!wanted.has(reference.identifier)) wanted.set(reference.identifier, reference.format);
  }
  const thumbnails = new Map<string, IngredientThumbnail>();
  for (const [identifier, format] of wanted) {
    const thumbnail = checkedThumbnail(format, await readOrNothing(read, identifier));
    if (thumbnail !== undefined) thumbnails.set(identifier, thumbnail);
  }
  return thumbnails;
}

/** The bytes as a thumbnail, when they are a small image of the declared format. */
function checkedThumbnail(
  declared: string,
  bytes: Uint8Array | undefined,
): IngredientThumbnail | undefined {
  if (bytes === undefined || bytes.length === 0 || bytes.length > MAX_THUMBNAIL_BYTES) {
    return undefined;
  }
  const sniffed = sniffImageFormat(bytes);
  if (!sniffed.image || sniffed.mimeType !== declared) return undefined;
  // A plain view, not the Buffer c2pa-node returns: callers serialise it as they choose.
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return { mimeType: declared as ThumbnailMimeType, bytes: view };
}

/** A shown format's MIME type: C2PA writes MIME types, older manifests a bare `jpg` or `png`. */
function shownMimeType(format: string): ThumbnailMimeType | undefined {
  const lower = format.trim().toLowerCase();
  const bare = lower.startsWith('image/') ? lower.slice('image/'.length) : lower;
  const name = bare === 'jpg' ? 'jpeg' : bare;
  const shown = THUMBNAIL_FORMATS.find((candidate) => candidate === name);
  return shown === undefined ? undefined : (mimeTypeOf(shown) as ThumbnailMimeType);
}

/** A resource the store names but cannot give (missing, or its box broken) is simply left off. */
async function readOrNothing(
  read: ResourceReader,
  identifier: string,
): Promise<Uint8Array | undefined> {
  try {
    return await read(identifier);
  } catch {
    return undefined;
  }
}
