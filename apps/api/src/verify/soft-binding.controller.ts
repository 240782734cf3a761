import { findIssuedByPayload } from '@hallmark/db';
import { CONFIG, type HallmarkConfig, PrismaService } from '@hallmark/platform';
import { problemTypes } from '@hallmark/schemas';
import { INVISIBLE_MARK_ALGORITHM } from '@hallmark/watermark-core';
import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PublicWhen } from '../auth/public.decorator.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { readImageBody } from './image-body.ts';
import { VerifyService } from './verify.service.ts';

export interface SoftBindingMatches {
  readonly matches: ReadonlyArray<{
    readonly manifestId: string;
    readonly similarityScore: number;
  }>;
}

function invalid(path: string, message: string): ProblemException {
  return new ProblemException(problemTypes.validationError, `${path}: ${message}`, [
    { path, message },
  ]);
}

function maxResultsOf(value: string | undefined): number {
  if (value === undefined) return 10;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw invalid('maxResults', 'Expected an integer of 1 or more');
  return parsed;
}

/** The mark's payload from the query's base64 `value`: exactly 8 bytes. */
function payloadOf(alg: unknown, value: unknown): string {
  if (typeof alg !== 'string' || alg === '') throw invalid('alg', 'Required');
  if (typeof value !== 'string' || value === '') throw invalid('value', 'Required');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw invalid('value', 'Expected base64');
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== 8)
    throw invalid('value', `Expected the 8-byte payload of ${INVISIBLE_MARK_ALGORITHM}`);
  return bytes.toString('hex');
}

/**
 * The C2PA Soft Binding Resolution API (its OpenAPI document 1.0.0), at the root as that document
 * writes it: from a soft binding (the invisible mark's payload) or from an image (the service
 * runs its own detector) to the manifests this deployment issued with it.
 */
@PublicWhen('SOFT_BINDING_API_PUBLIC')
@Controller()
export class SoftBindingController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly verify: VerifyService,
  ) {}

  @Get('services/supportedAlgorithms')
  supportedAlgorithms() {
    return { watermarks: [{ alg: INVISIBLE_MARK_ALGORITHM }], fingerprints: [] };
  }

  @Get('matches/byBinding')
  byBinding(
    @Query('alg') alg: string | undefined,
    @Query('value') value: string | undefined,
    @Query('maxResults') maxResults: string | undefined,
  ): Promise<SoftBindingMatches> {
    const limit = maxResultsOf(maxResults);
    return this.#matches(alg, payloadOf(alg, value), 100, limit);
  }

  @Post('matches/byBinding')
  @HttpCode(200)
  byLargeBinding(
    @Body() body: unknown,
    @Query('maxResults') maxResults: string | undefined,
  ): Promise<SoftBindingMatches> {
    const limit = maxResultsOf(maxResults);
    const query = (body ?? {}) as { alg?: unknown; value?: unknown };
    return this.#matches(query.alg, payloadOf(query.alg, query.value), 100, limit);
  }

  @Post('matches/byContent')
  @HttpCode(200)
  async byContent(
    @Req() request: FastifyRequest,
    @Query('alg') alg: string | undefined,
    @Query('maxResults') maxResults: string | undefined,
  ): Promise<SoftBindingMatches> {
    const limit = maxResultsOf(maxResults);
    if (alg !== undefined && alg !== INVISIBLE_MARK_ALGORITHM) return { matches: [] };
    const bytes = await readImageBody(request.body, this.config.VERIFY_SYNC_MAX_BYTES);
    const { payload, confidence } = await this.verify.readMark(bytes);
    if (payload === null) return { matches: [] };
    return this.#matches(INVISIBLE_MARK_ALGORITHM, payload, Math.round(confidence * 100), limit);
  }

  async #matches(
    alg: unknown,
    payloadHex: string,
    similarityScore: number,
    limit: number,
  ): Promise<SoftBindingMatches> {
    // Another algorithm's binding cannot match a mark of this one.
    if (alg !== INVISIBLE_MARK_ALGORITHM) return { matches: [] };
    const issued = await findIssuedByPayload(this.prisma.sql, payloadHex);
    if (issued === null || issued.manifestId === null) return { matches: [] };
    return { matches: [{ manifestId: issued.manifestId, similarityScore }].slice(0, limit) };
  }
}
