import { problemTypes } from '@hallmark/schemas';
import { decodeLinkKey, type LinkMethod, type LinkSigner } from '@hallmark/storage';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '../problem/problem.exception.ts';

/**
 * Checks the signature of a storage link the API serves (local driver) and returns the object
 * key. A tampered, incomplete or expired link is a 403 that touches nothing.
 */
export function verifiedObjectKey(
  request: FastifyRequest,
  method: LinkMethod,
  signer: LinkSigner,
): string {
  const url = new URL(request.url, 'http://localhost');
  const key = decodeLinkKey(url.pathname.replace(/^\/storage\//, ''));
  if (key === undefined) {
    throw new ProblemException(
      problemTypes.badUrl,
      'The link holds a malformed percent-escape: use the link exactly as it was given.',
    );
  }
  const expires = Number(url.searchParams.get('expires'));
  const signature = url.searchParams.get('signature') ?? '';
  const verdict = Number.isSafeInteger(expires)
    ? signer.verify({ method, key, expires }, signature, Math.floor(Date.now() / 1000))
    : 'bad_signature';
  if (verdict === 'valid') return key;
  throw new ProblemException(
    problemTypes.invalidSignature,
    verdict === 'expired'
      ? 'This link has expired; ask for a new one.'
      : 'The link signature does not match: use the link exactly as it was given.',
  );
}
