// Runs in a pool thread: the pixel work of the invisible mark (marking a job's image, reading a
// verified file's mark and fingerprint, comparing it with its job's picture), off the worker's
// event loop.
import { workerData } from 'node:worker_threads';
import {
  type ContentComparison,
  type ContentInput,
  compareContent,
  makeContentReference,
} from '@hallmark/watermark-core/content';
// Only the invisible engine: C2PA is signed on the main thread, and a pixel thread that loaded it
// too would carry twice the heap through its frequent full collections (see that entry's notes).
import {
  type Detection,
  embedMark,
  payloadFromHex,
  readMarkAndFingerprint,
  setPixelThreads,
} from '@hallmark/watermark-core/invisible';

// Each pixel thread gets its share of the cores for libvips.
const { libvipsThreads } = (workerData ?? {}) as { libvipsThreads?: number };
if (libvipsThreads !== undefined) setPixelThreads(libvipsThreads);

export interface EmbedTask {
  readonly bytes: Uint8Array;
  readonly payloadHex: string;
  readonly maxPixels: number;
}

/**
 * Errors are returned as data: only name, message and stack survive the trip between threads,
 * and the pipeline needs the stable `code` to tell a bad image from a transient failure.
 */
export type EmbedResult =
  | {
      readonly ok: true;
      readonly bytes: Uint8Array;
      readonly fingerprint: string;
      readonly contentReference: Uint8Array;
      readonly width: number;
      readonly height: number;
    }
  | TaskFailure;

export interface TaskFailure {
  readonly ok: false;
  readonly code: string | undefined;
  readonly message: string;
}

export interface ReadTask {
  readonly bytes: Uint8Array;
  readonly maxPixels: number;
}

export type ReadResult =
  | { readonly ok: true; readonly detection: Detection | null; readonly fingerprint: string }
  | TaskFailure;

export async function read(task: ReadTask): Promise<ReadResult> {
  try {
    const { detection, fingerprint } = await readMarkAndFingerprint(task.bytes, task.maxPixels);
    return { ok: true, detection, fingerprint };
  } catch (error) {
    return failure(error);
  }
}

export interface CompareTask extends ContentInput {
  readonly bytes: Uint8Array;
}

export type CompareResult =
  | { readonly ok: true; readonly comparison: ContentComparison }
  | TaskFailure;

/** A verified copy compared with its job's content reference (compareContent). */
export async function compare(task: CompareTask): Promise<CompareResult> {
  try {
    const { bytes, ...input } = task;
    return { ok: true, comparison: await compareContent(bytes, input) };
  } catch (error) {
    return failure(error);
  }
}

export async function embed(task: EmbedTask): Promise<EmbedResult> {
  try {
    const marked = await embedMark(task.bytes, payloadFromHex(task.payloadHex), {
      maxPixels: task.maxPixels,
    });
    // The reference is of the issued pixels (signing a manifest later does not change them).
    const contentReference = await makeContentReference(marked.image, task.maxPixels);
    return {
      ok: true,
      bytes: marked.image,
      fingerprint: marked.fingerprint,
      contentReference,
      width: marked.width,
      height: marked.height,
    };
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown): TaskFailure {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    ok: false,
    code: typeof code === 'string' ? code : undefined,
    message: error instanceof Error ? error.message : String(error),
  };
}
