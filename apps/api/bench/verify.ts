import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { examineImage } from '@hallmark/verification';

const ROUNDS = 9;
const photo = join(import.meta.dirname, '../../../fixtures/photos/clock-1mp.jpg');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * `POST /verify/file` of a 1 MP JPEG, one request at a time over loopback, against examining the
 * same bytes in this process (the pixel and manifest work alone): the ratio is what the request
 * path adds (HTTP, auth, the record lookups, recording the verification).
 */
export async function benchVerifyFile(
  baseUrl: string,
  apiKey: string,
): Promise<{ ms: number; directMs: number; rounds: number }> {
  const bytes = await readFile(photo);
  const request = async () => {
    const res = await fetch(`${baseUrl}/verify/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'image/jpeg' },
      body: bytes,
    });
    if (res.status !== 200) throw new Error(`POST /verify/file answered ${res.status}`);
    await res.arrayBuffer();
  };
  const direct = () => examineImage(bytes, { trustAnchors: undefined, maxPixels: 50_000_000 });
  await request();
  await direct();
  const served: number[] = [];
  const local: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let start = performance.now();
    await request();
    served.push(performance.now() - start);
    start = performance.now();
    await direct();
    local.push(performance.now() - start);
  }
  return { ms: median(served), directMs: median(local), rounds: ROUNDS };
}
