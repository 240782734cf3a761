import { join } from 'node:path';
import { type HallmarkClient, watermarkFile } from '@hallmark/sdk';
import type { RunningService } from '../test/support/service.ts';

const ROUNDS = 9;
const photo = join(import.meta.dirname, '../../../fixtures/photos/sunset-12mp.jpg');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * What the content check adds to `POST /verify/file` of a marked 12 MP JPEG (an output of the
 * service, invisible mark and C2PA): the same request, one at a time, alternating between the job
 * with its content reference and the same job without one (as a job marked before references
 * were kept: read, looked up, not compared). Same service, same bytes, same run.
 */
export async function benchVerifyContent(
  service: RunningService,
  client: HallmarkClient,
  apiKey: string,
): Promise<{ ms: number; withoutMs: number; rounds: number; state: string }> {
  const result = await watermarkFile(client, photo, { watermarkType: ['invisible', 'c2pa'] });
  const output = await result.download();
  const jobId = result.job.requestId;
  const { contentReference } = await service.prisma.watermarkJob.findUniqueOrThrow({
    where: { id: jobId },
    select: { contentReference: true },
  });
  if (contentReference === null) throw new Error('the job kept no content reference');
  const setReference = (value: Uint8Array<ArrayBuffer> | null) =>
    service.prisma.watermarkJob.update({
      where: { id: jobId },
      data: { contentReference: value },
    });
  const request = async (): Promise<string> => {
    const res = await fetch(`${service.baseUrl}/verify/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'image/jpeg' },
      body: output,
    });
    if (res.status !== 200) throw new Error(`POST /verify/file answered ${res.status}`);
    const body = (await res.json()) as { result: { content?: { state: string } } };
    return body.result.content?.state ?? 'absent';
  };
  const timed = async () => {
    const start = performance.now();
    const state = await request();
    return { ms: performance.now() - start, state };
  };
  const compared: number[] = [];
  const plain: number[] = [];
  let state = '';
  await request();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await setReference(contentReference);
      const withReference = await timed();
      compared.push(withReference.ms);
      state = withReference.state;
      await setReference(null);
      const without = await timed();
      if (without.state !== 'not_compared')
        throw new Error(`without a reference: ${without.state}`);
      plain.push(without.ms);
    }
  } finally {
    await setReference(contentReference);
  }
  return { ms: median(compared), withoutMs: median(plain), rounds: ROUNDS, state };
}
