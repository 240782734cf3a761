import { join } from 'node:path';
import { type HallmarkClient, watermarkFile } from '@hallmark/sdk';
import sharp from 'sharp';
import type { RunningService } from '../test/support/service.ts';

const ROUNDS = 9;
const photo = join(import.meta.dirname, '../../../fixtures/photos/sunset-12mp.jpg');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** One file verified with and without the job's content reference. */
export interface ContentCost {
  readonly copy: string;
  readonly ms: number;
  readonly withoutMs: number;
  readonly rounds: number;
  readonly state: string;
}

/**
 * What the content check adds to `POST /verify/file` of a marked 12 MP JPEG (an output of the
 * service, invisible mark and C2PA), for the output as downloaded (the same bytes: recognised by
 * digest, not compared) and for a copy that must be compared (re-encoded at JPEG q90, its
 * manifest gone with the re-encode): the same request, one at a time, alternating between the
 * job with its content reference and the same job without one (as a job marked before
 * references were kept: read, looked up, not compared). Same service, same bytes, same run.
 */
export async function benchVerifyContent(
  service: RunningService,
  client: HallmarkClient,
  apiKey: string,
): Promise<ContentCost[]> {
  const result = await watermarkFile(client, photo, { watermarkType: ['invisible', 'c2pa'] });
  const output = await result.download();
  const reencoded = await sharp(output).jpeg({ quality: 90 }).toBuffer();
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
  const request = async (body: Uint8Array<ArrayBuffer>): Promise<string> => {
    const res = await fetch(`${service.baseUrl}/verify/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'image/jpeg' },
      body,
    });
    if (res.status !== 200) throw new Error(`POST /verify/file answered ${res.status}`);
    const answer = (await res.json()) as { result: { content?: { state: string } } };
    return answer.result.content?.state ?? 'absent';
  };
  const timed = async (body: Uint8Array<ArrayBuffer>) => {
    const start = performance.now();
    const state = await request(body);
    return { ms: performance.now() - start, state };
  };
  const costOf = async (copy: string, body: Uint8Array<ArrayBuffer>): Promise<ContentCost> => {
    const compared: number[] = [];
    const plain: number[] = [];
    let state = '';
    await request(body);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await setReference(contentReference);
        const withReference = await timed(body);
        compared.push(withReference.ms);
        state = withReference.state;
        await setReference(null);
        const without = await timed(body);
        // The output itself is recognised by its digest with or without a reference.
        if (without.state !== 'not_compared' && without.state !== state) {
          throw new Error(`without a reference: ${without.state}`);
        }
        plain.push(without.ms);
      }
    } finally {
      await setReference(contentReference);
    }
    return { copy, ms: median(compared), withoutMs: median(plain), rounds: ROUNDS, state };
  };
  return [
    await costOf('the output as downloaded', new Uint8Array(output)),
    await costOf('re-encoded at q90 (no manifest)', new Uint8Array(reencoded)),
  ];
}
