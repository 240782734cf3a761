// Video and sound go from storage to storage through local files: a 2 GB clip is never held
// whole; ffmpeg (the video mark) and c2pa-node (the manifest) read and write the files.
import { join } from 'node:path';
import { mediaTypeOf } from '@hallmark/schemas';
import type { ObjectStorage, StoredObject } from '@hallmark/storage';
import { inScratchFolder } from '../scratch-folder.ts';
import type { SignedFile } from '../techniques/techniques.ts';

/**
 * Whether a file of this type is video or sound, worked on through files rather than in memory
 * (whether c2pa-node then holds it whole is the contract's `streamed`, which limits its size).
 */
export function isTimeBasedMedia(contentType: string): boolean {
  const kind = mediaTypeOf(contentType)?.kind;
  return kind === 'video' || kind === 'audio';
}

export interface MediaPlan {
  readonly inputKey: string;
  readonly outputKey: string;
  readonly manifestKey: string;
  readonly contentType: string;
  /** The video mark, when asked for: from the file at `input` into the new file `output`. */
  readonly mark?: (
    input: string,
    output: string,
  ) => Promise<{ readonly width: number; readonly height: number }>;
  /** The manifest, when asked for: always the last step, as for images. */
  readonly sign?: (input: string, output: string) => Promise<SignedFile>;
}

export interface MediaOutput {
  readonly stored: StoredObject;
  readonly size: { readonly width: number; readonly height: number } | undefined;
  readonly signed: SignedFile | undefined;
}

/** Runs one named step of a job (the pipeline's `timed`). */
export type StepTimer = <T>(
  name: 'load' | 'invisible' | 'c2pa' | 'store',
  work: () => Promise<T>,
) => Promise<T>;

/**
 * Reads the upload into a scratch folder of its own, marks and signs it there as asked, and
 * stores the manifest sidecar and then the final file; the folder goes whatever happens.
 */
export async function processMediaThroughFiles(
  storage: ObjectStorage,
  scratchRoot: string,
  plan: MediaPlan,
  time: StepTimer,
): Promise<MediaOutput> {
  // Named with the type's extension: ffmpeg picks the container it writes by the name.
  const extension = mediaTypeOf(plan.contentType)?.extensions[0] ?? 'bin';
  return inScratchFolder(scratchRoot, async (folder) => {
    let current = join(folder, `input.${extension}`);
    const upload = current;
    await time('load', () => storage.readToFile(plan.inputKey, upload));
    let size: MediaOutput['size'];
    if (plan.mark !== undefined) {
      const { mark } = plan;
      const marked = join(folder, `marked.${extension}`);
      size = await time('invisible', () => mark(upload, marked));
      current = marked;
    }
    let signed: SignedFile | undefined;
    if (plan.sign !== undefined) {
      const { sign } = plan;
      const unsigned = current;
      const output = join(folder, `signed.${extension}`);
      signed = await time('c2pa', () => sign(unsigned, output));
      current = output;
    }
    const final = current;
    const stored = await time('store', async () => {
      if (signed !== undefined) {
        await storage.write(plan.manifestKey, signed.manifestStore, 'application/c2pa');
      }
      return storage.writeFromFile(plan.outputKey, final, plan.contentType);
    });
    return { stored, size, signed };
  });
}
