import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type C2paFinding,
  type InvisibleFinding,
  mediaTypeFor,
  sniffMediaFormat,
} from '@hallmark/schemas';
import {
  type Detection,
  detectC2paFormatOfFile,
  FfmpegError,
  INVISIBLE_MARK_ALGORITHM,
  type IngredientSummary,
  type ManifestSummary,
  type MarkGeometry,
  markTilePixels,
  payloadToHex,
  type ReadManifestOptions,
  readManifest,
  readManifestFile,
  readMarkAndFingerprint,
  readVideoMark,
  type VideoMarkReading,
  type VideoTools,
} from '@hallmark/watermark-core';

/** What the file itself says: the mark in its pixels, its embedded manifest, its fingerprint. */
export interface Findings {
  /**
   * Whether the file is of a kind that can carry the invisible mark (an image the mark is
   * embedded in, an MP4 or a MOV); of an AVI, a sound or a vector drawing only the manifest is
   * read. Absent in reports stored before other kinds of file were verified: those were images.
   */
  readonly markable?: boolean;
  readonly invisible: InvisibleFinding;
  readonly c2pa: C2paFinding;
  /** The file's perceptual fingerprint (16 hex digits). */
  readonly fingerprint: string | null;
  /** How the mark lies in the file, before it is related to the issued output's size. */
  readonly markGeometry: MarkGeometry | null;
}

/** Reads the invisible mark and the fingerprint from one decode (readMarkAndFingerprint's contract). */
export type PixelReader = (
  bytes: Uint8Array,
  maxPixels: number,
) => Promise<{ readonly detection: Detection | null; readonly fingerprint: string }>;

export interface ExamineOptions {
  /** PEM bundle of the operator's own roots (its development root included, when it signs so). */
  readonly trustAnchors: string | undefined;
  /** PEM bundle of the public list the deployment adopts, time-stamp authorities included. */
  readonly trustList?: string | undefined;
  readonly maxPixels: number;
  /**
   * Where the pixels are read; by default here, on the caller's thread. The worker passes its
   * pixel threads, so the detector never holds its event loop.
   */
  readonly readPixels?: PixelReader;
  /** Where ffmpeg and ffprobe are, for a video's mark. Default: Debian's. */
  readonly videoTools?: VideoTools;
}

/**
 * Reads both marks of an image, at once: the invisible mark from its pixels, the C2PA manifest
 * from its container, and its perceptual fingerprint. An image too small to carry a mark simply
 * has none.
 *
 * @throws the watermark-core errors for bytes that are not a supported, readable image
 */
export async function examineImage(bytes: Uint8Array, options: ExamineOptions): Promise<Findings> {
  switch (markCarrier(bytes)) {
    case 'video':
      return withTemporaryFile(bytes, (path) => examineMediaFile(path, options));
    case 'none':
      return withoutPixels(await readManifest(bytes, trustOf(options)), null);
    case 'image':
      break;
  }
  // The pixels are decoded once for the mark and the fingerprint; the manifest is read meanwhile.
  const [pixels, manifest] = await Promise.all([
    (options.readPixels ?? readMarkAndFingerprint)(bytes, options.maxPixels),
    readManifest(bytes, trustOf(options)),
  ]);
  const { detection, fingerprint } = pixels;
  return {
    markable: true,
    invisible: {
      found: detection?.found ?? false,
      algorithm: INVISIBLE_MARK_ALGORITHM,
      payload: detection?.payload == null ? null : payloadToHex(detection.payload),
      confidence: detection?.confidence ?? 0,
      geometry:
        detection?.geometry === undefined
          ? null
          : {
              rotation: round(detection.geometry.rotation, 1),
              mirrored: detection.geometry.mirrored,
              scale: null,
              cropOffset: null,
            },
    },
    c2pa: c2paFinding(manifest),
    fingerprint,
    markGeometry: detection?.geometry ?? null,
  };
}

/**
 * Reads a file of any kind at `path` (a video, a recording) without holding it whole: its
 * manifest as a stream, and an MP4's or MOV's video mark from means of its frames (ffmpeg). A
 * video whose frames cannot be read (no video stream, frames too small, no ffmpeg here) has no mark found.
 */
export async function examineMediaFile(path: string, options: ExamineOptions): Promise<Findings> {
  const format = await detectC2paFormatOfFile(path);
  if (!mediaTypeFor(format).markable) {
    return withoutPixels(await readManifestFile(path, trustOf(options)), null);
  }
  const [reading, manifest] = await Promise.all([
    readVideoMark(
      path,
      options.videoTools === undefined ? {} : { tools: options.videoTools },
    ).catch((error: unknown) => {
      if (error instanceof FfmpegError || NO_MARK_TO_READ.has(codeOf(error))) return null;
      throw error;
    }),
    readManifestFile(path, trustOf(options)),
  ]);
  return withoutPixels(manifest, { reading });
}

/** What a video too small, or with no frames to read, gives: no mark, as an image too small. */
const NO_MARK_TO_READ: ReadonlySet<string | undefined> = new Set(['image_too_small']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Where the bytes' mark would be: in an image's pixels (what is not recognised goes there too, to
 * be refused by the engines), in a video's frames (read through a temporary file), or nowhere.
 */
function markCarrier(bytes: Uint8Array): 'image' | 'video' | 'none' {
  const sniffed = sniffMediaFormat(bytes);
  if (!sniffed.known) return 'image';
  if (!sniffed.type.markable) return 'none';
  return sniffed.type.kind === 'video' ? 'video' : 'image';
}

/** `work` on the bytes written to a temporary file, removed afterwards. */
async function withTemporaryFile<T>(
  bytes: Uint8Array,
  work: (path: string) => Promise<T>,
): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'hallmark-verify-'));
  try {
    const path = join(folder, 'file');
    await writeFile(path, bytes);
    return await work(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function trustOf(options: ExamineOptions): ReadManifestOptions {
  return { trustAnchors: options.trustAnchors, trustList: options.trustList };
}

/**
 * The findings of a file whose pixels are not read: its manifest, and for a video that can carry
 * the mark what its frames gave (`reading` null: none could be read); `video` absent for a file
 * that cannot carry the mark at all.
 */
function withoutPixels(
  manifest: ManifestSummary,
  video: { readonly reading: VideoMarkReading | null } | null,
): Findings {
  const reading = video?.reading ?? null;
  return {
    markable: video !== null,
    invisible: {
      found: reading?.found ?? false,
      algorithm: INVISIBLE_MARK_ALGORITHM,
      payload: reading?.payloadHex ?? null,
      confidence: reading?.confidence ?? 0,
      geometry: null,
    },
    c2pa: c2paFinding(manifest),
    fingerprint: null,
    markGeometry: null,
  };
}

/**
 * The mark's geometry against the output it was issued in (`width` x `height`): the scale of the
 * copy, and where in the output it begins, along the copy's axes, modulo one tile of the mark.
 */
export function relateGeometry(
  findings: Findings,
  issued: { readonly width: number; readonly height: number } | null,
): Findings {
  const raw = findings.markGeometry;
  const geometry = findings.invisible.geometry;
  if (raw === null || geometry === null || issued === null) return findings;
  const tile = markTilePixels(issued.width, issued.height);
  const scale = raw.tilePixels / tile;
  // The issued grid's corner lies at gridOrigin in the copy: the copy begins that far short of
  // the next corner, in the copy's pixels, i.e. (tile - origin) / scale into the output.
  const into = (origin: number) => ((raw.tilePixels - origin) % raw.tilePixels) / scale;
  return {
    ...findings,
    invisible: {
      ...findings.invisible,
      geometry: {
        ...geometry,
        scale: round(scale, 3),
        cropOffset: { x: round(into(raw.gridOriginX), 0), y: round(into(raw.gridOriginY), 0) },
      },
    },
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The manifest summary in the report's terms. */
export function c2paFinding(summary: ManifestSummary): C2paFinding {
  if (!summary.present) {
    return {
      present: false,
      manifestId: null,
      state: null,
      statusCodes: [],
      signer: null,
      actions: [],
      metadata: {},
      softBinding: null,
      ingredients: [],
    };
  }
  return {
    present: true,
    manifestId: summary.manifestLabel,
    state: summary.validation.state,
    statusCodes: summary.validation.failures.map((failure) => failure.code),
    signer:
      summary.signer === null
        ? null
        : {
            subject: summary.signer.subject,
            issuer: summary.signer.issuer,
            algorithm: summary.signer.algorithm,
            signingTime: summary.signer.signingTime,
            isDevelopmentIdentity: summary.signer.isDevelopmentIdentity,
            trustedBy: summary.signer.trustedBy,
            timeStamp: summary.signer.timeStamp,
          },
    actions: summary.actions.map((action) => ({
      action: action.action,
      softwareAgent: action.softwareAgent,
      when: action.when,
    })),
    metadata: { ...summary.metadata },
    softBinding:
      summary.softBinding === null
        ? null
        : { algorithm: summary.softBinding.algorithm, payload: summary.softBinding.payloadHex },
    ingredients: flatten(summary.ingredients, 1),
  };
}

function flatten(
  ingredients: readonly IngredientSummary[],
  depth: number,
): C2paFinding['ingredients'] {
  return ingredients.flatMap((ingredient) => [
    {
      title: ingredient.title,
      relationship: ingredient.relationship,
      manifestId: ingredient.manifestLabel,
      state: ingredient.validation?.state ?? null,
      depth,
      thumbnail:
        ingredient.thumbnail === null
          ? null
          : `data:${ingredient.thumbnail.mimeType};base64,${Buffer.from(ingredient.thumbnail.bytes).toString('base64')}`,
    },
    ...flatten(ingredient.ingredients, depth + 1),
  ]);
}
