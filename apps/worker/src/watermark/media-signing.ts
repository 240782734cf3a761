// Video and sound are signed from storage to storage through two local files: a 2 GB clip is
// never held whole, and c2pa-node reads and writes the files itself.
import { join } from 'node:path';
import { mediaTypeOf } from '@hallmark/schemas';
import type { ObjectStorage, StoredObject } from '@hallmark/storage';
import { inScratchFolder } from '../scratch-folder.ts';
import type { C2paSigning, SignedFile, SigningRequest } from '../techniques/techniques.ts';

/** Whether a file of this type is signed as a stream rather than in memory. */
export function isStreamedMedia(contentType: string): boolean {
  const kind = mediaTypeOf(contentType)?.kind;
  return kind === 'video' || kind === 'audio';
}

export interface MediaSigningPlan {
  readonly inputKey: string;
  readonly outputKey: string;
  readonly manifestKey: string;
  readonly contentType: string;
  readonly request: SigningRequest;
}

export interface SignedMediaOutput {
  readonly stored: StoredObject;
  readonly signed: SignedFile;
}

/** Runs one named step of a job (the pipeline's `timed`). */
export type StepTimer = <T>(name: 'load' | 'c2pa' | 'store', work: () => Promise<T>) => Promise<T>;

/**
 * Reads the upload into a scratch folder of its own, signs it there, and stores the manifest
 * sidecar and then the signed file; the folder goes whatever happens.
 */
export async function signMediaThroughFiles(
  storage: ObjectStorage,
  signing: C2paSigning,
  scratchRoot: string,
  plan: MediaSigningPlan,
  time: StepTimer,
): Promise<SignedMediaOutput> {
  return inScratchFolder(scratchRoot, async (folder) => {
    const input = join(folder, 'input');
    const output = join(folder, 'output');
    await time('load', () => storage.readToFile(plan.inputKey, input));
    const signed = await time('c2pa', () => signing.signFile(input, output, plan.request));
    const stored = await time('store', async () => {
      await storage.write(plan.manifestKey, signed.manifestStore, 'application/c2pa');
      return storage.writeFromFile(plan.outputKey, output, plan.contentType);
    });
    return { stored, signed };
  });
}
