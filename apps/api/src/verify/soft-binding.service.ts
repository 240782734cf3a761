import { findIssuedByPayload } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { problemTypes } from '@hallmark/schemas';
import { INVISIBLE_MARK_ALGORITHM } from '@hallmark/watermark-core';
import { Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { VerifyService } from './verify.service.ts';

export interface SoftBindingMatches {
  readonly matches: ReadonlyArray<{
    readonly manifestId: string;
    readonly similarityScore: number;
  }>;
}

/** The best match a binding value can have: it is the mark's whole payload. */
const EXACT = 100;

/**
 * Soft binding resolution: from the invisible mark's payload, given or read from an image, to the
 * manifest this deployment issued with it. Another algorithm's binding matches nothing here.
 */
@Injectable()
export class SoftBindingService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly verify: VerifyService,
  ) {}

  supportedAlgorithms() {
    return { watermarks: [{ alg: INVISIBLE_MARK_ALGORITHM }], fingerprints: [] };
  }

  byBinding(alg: string, value: string, maxResults: number): Promise<SoftBindingMatches> {
    return this.#matches(alg, payloadOf(value), EXACT, maxResults);
  }

  /** `readImage` is called only for this algorithm: another one's query costs no upload read. */
  async byContent(
    readImage: () => Promise<Uint8Array>,
    alg: string | undefined,
    maxResults: number,
  ): Promise<SoftBindingMatches> {
    if (alg !== undefined && alg !== INVISIBLE_MARK_ALGORITHM) return { matches: [] };
    const { payload, confidence } = await this.verify.readMark(await readImage());
    if (payload === null) return { matches: [] };
    const score = Math.round(confidence * 100);
    return this.#matches(INVISIBLE_MARK_ALGORITHM, payload, score, maxResults);
  }

  async #matches(
    alg: string,
    payloadHex: string,
    similarityScore: number,
    maxResults: number,
  ): Promise<SoftBindingMatches> {
    if (alg !== INVISIBLE_MARK_ALGORITHM) return { matches: [] };
    const issued = await findIssuedByPayload(this.prisma.sql, payloadHex);
    if (issued === null || issued.manifestId === null) return { matches: [] };
    return { matches: [{ manifestId: issued.manifestId, similarityScore }].slice(0, maxResults) };
  }
}

/** The mark's payload from a binding's base64 `value`: exactly 8 bytes. */
function payloadOf(value: string): string {
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : null;
  if (bytes === null || bytes.length !== 8) {
    const message =
      bytes === null
        ? 'Expected base64'
        : `Expected the 8-byte payload of ${INVISIBLE_MARK_ALGORITHM}`;
    throw new ProblemException(problemTypes.validationError, `value: ${message}`, [
      { path: 'value', message },
    ]);
  }
  return bytes.toString('hex');
}
