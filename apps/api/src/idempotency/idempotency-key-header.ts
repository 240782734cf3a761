import { IdempotencyKey } from '@hallmark/schemas';
import { z } from 'zod';
import { parseRequest } from '../validation/parse-request.ts';

const IdempotencyHeaders = z.object({ 'idempotency-key': IdempotencyKey.optional() });

/** The request's `Idempotency-Key`, checked (a 400 naming the header when malformed). */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  return parseRequest(IdempotencyHeaders, { 'idempotency-key': header }, 'headers')[
    'idempotency-key'
  ];
}
