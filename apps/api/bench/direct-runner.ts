// The baseline of the jobs benchmark, in a process of its own that holds nothing but
// watermark-core and the photos: the engines called directly, with no HTTP, database, queue,
// storage or thread hand-off, and a heap as small as the worker's pixel thread has (the bench
// process carries Prisma, the SDK and the log followers, which would make every GC dearer).
// Started by jobs.ts with `fork`; each message { lanes } runs the files once, answered with ms.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSigner, embedMark, signManifest } from '@hallmark/watermark-core';
import { inLanes } from './in-lanes.ts';

const [, , count, ...paths] = process.argv;
const photos = await Promise.all(paths.map((path) => readFile(path)));
const files = Array.from({ length: Number(count) }, (_, i) => photos[i % photos.length] as Buffer);
const signerDir = await mkdtemp(join(tmpdir(), 'hallmark-bench-'));
const signer = await createSigner({ kind: 'development', dataDir: signerDir });

async function markAndSign(bytes: Uint8Array, i: number): Promise<void> {
  const marked = await embedMark(bytes, BigInt(i + 1));
  await signManifest(
    marked.image,
    { fileId: crypto.randomUUID(), requestId: crypto.randomUUID() },
    signer,
  );
}

async function runOnce(lanes: number): Promise<number> {
  const start = performance.now();
  await inLanes(files, lanes, markAndSign);
  return performance.now() - start;
}

process.on('message', (message: { lanes: number }) => {
  runOnce(message.lanes).then(
    (ms) => process.send?.({ ms }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.on('disconnect', () => {
  rm(signerDir, { recursive: true, force: true }).then(
    () => process.exit(0),
    () => process.exit(0),
  );
});
process.send?.({ ready: true });
