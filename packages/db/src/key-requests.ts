// The key request's states, all changed here and nowhere else:
//
//   createKeyRequest ──▶ pending ──decideKeyRequest──▶ approved + key (sealed) ──collectApiKey──▶ approved + key
//                           │                              │    ▲                  (once: the row is locked,
//                           │                              └────┘ reissueApiKey     the sealed copy erased)
//                           └──────decideKeyRequest──▶ rejected
//
// A decision is taken only from pending (two operators deciding at once: one wins, the other
// reads "decided already"). Approval makes the key at once, so operators see it listed; its
// plaintext waits sealed (AES-GCM under a key derived from the service secret, never in clear)
// until the requester collects it, then only its hash is left.

import { generateApiKey } from './api-keys.ts';
import type { KeyRequest, PrismaClient } from './generated/prisma/client.ts';

export type { KeyRequest };

export interface NewKeyRequest {
  readonly companyName: string;
  readonly purpose: string;
  readonly contactName: string;
  readonly contactEmail: string;
  readonly website: string | null;
  readonly expectedVolume: string | null;
  readonly tokenHash: string;
  /** The token, sealed, for the link in the approval mail. */
  readonly sealedToken: string | null;
  readonly dueAt: Date;
}

export function createKeyRequest(
  prisma: Pick<PrismaClient, 'keyRequest'>,
  request: NewKeyRequest,
): Promise<KeyRequest> {
  return prisma.keyRequest.create({ data: request });
}

/** The request behind a status link: its id and its token must both match. */
export function findKeyRequestByToken(
  prisma: Pick<PrismaClient, 'keyRequest'>,
  id: string,
  tokenHash: string,
): Promise<(KeyRequest & { apiKey: { prefix: string; revokedAt: Date | null } | null }) | null> {
  return prisma.keyRequest.findFirst({
    where: { id, tokenHash },
    include: { apiKey: { select: { prefix: true, revokedAt: true } } },
  });
}

export function listKeyRequests(
  prisma: Pick<PrismaClient, 'keyRequest'>,
  status?: KeyRequest['status'],
): Promise<KeyRequest[]> {
  return prisma.keyRequest.findMany({
    where: status === undefined ? {} : { status },
    orderBy: { createdAt: 'asc' },
  });
}

/** Seals and opens the secrets kept for a request (sealed-secret.ts, under the service secret). */
export interface SecretSealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export type KeyRequestDecision =
  | { readonly approve: true; readonly by: string; readonly sealer: Pick<SecretSealer, 'seal'> }
  | { readonly approve: false; readonly reason: string; readonly by: string };

type DecisionClient = Pick<PrismaClient, 'keyRequest' | 'apiKey'>;

/**
 * Decides a pending request; null when it is not pending (decided already, or unknown). An
 * approval makes the request's key in the same transaction (run it in one, with the audit entry).
 */
export async function decideKeyRequest(
  prisma: DecisionClient,
  id: string,
  decision: KeyRequestDecision,
): Promise<(KeyRequest & { readonly apiKeyPrefix: string | null }) | null> {
  const { count } = await prisma.keyRequest.updateMany({
    where: { id, status: 'pending' },
    data: {
      status: decision.approve ? 'approved' : 'rejected',
      reason: decision.approve ? null : decision.reason,
      decidedAt: new Date(),
      decidedBy: decision.by,
    },
  });
  if (count !== 1) return null;
  const decided = await prisma.keyRequest.findUniqueOrThrow({ where: { id } });
  return decision.approve
    ? attachNewKey(prisma, decided, decision.sealer)
    : { ...decided, apiKeyPrefix: null };
}

/** A new key for the request, its plaintext kept sealed on the request until collected. */
async function attachNewKey(
  prisma: DecisionClient,
  request: KeyRequest,
  sealer: Pick<SecretSealer, 'seal'>,
): Promise<KeyRequest & { apiKeyPrefix: string }> {
  const key = generateApiKey();
  const created = await prisma.apiKey.create({
    data: { name: request.companyName, prefix: key.prefix, hash: key.hash },
  });
  const updated = await prisma.keyRequest.update({
    where: { id: request.id },
    data: { apiKeyId: created.id, sealedApiKey: sealer.seal(key.plaintext) },
  });
  return { ...updated, apiKeyPrefix: key.prefix };
}

/** The sealed copy of a key could not be opened: sealed under another service secret. */
export class SealedKeyUnreadableError extends Error {
  override readonly name = 'SealedKeyUnreadableError';
}

/**
 * The key of an approved request, returned in clear this once, its sealed copy erased; null when
 * the request is not approved or its key was collected already. The request row is locked, so
 * two collections at once cannot both see it.
 */
export async function collectApiKey(
  prisma: PrismaClient,
  requestId: string,
  sealer: Pick<SecretSealer, 'open'>,
): Promise<{ readonly plaintext: string; readonly prefix: string } | null> {
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      Array<{
        status: string;
        api_key_id: string | null;
        sealed_api_key: string | null;
        company_name: string;
        key_revoked: boolean;
      }>
    >`
      SELECT r.status, r.api_key_id, r.sealed_api_key, r.company_name,
             k.revoked_at IS NOT NULL AS key_revoked
        FROM key_requests r LEFT JOIN api_keys k ON k.id = r.api_key_id
       WHERE r.id = ${requestId}::uuid FOR UPDATE OF r`;
    // A revoked key is never handed out, whatever a revocation left behind.
    if (row === undefined || row.status !== 'approved' || row.key_revoked) return null;
    if (row.api_key_id === null) {
      // Approved before approval made the key: made now, as it was then.
      const key = generateApiKey();
      const created = await tx.apiKey.create({
        data: { name: row.company_name, prefix: key.prefix, hash: key.hash },
      });
      await tx.keyRequest.update({ where: { id: requestId }, data: { apiKeyId: created.id } });
      return { plaintext: key.plaintext, prefix: key.prefix };
    }
    if (row.sealed_api_key === null) return null;
    let plaintext: string;
    try {
      plaintext = sealer.open(row.sealed_api_key);
    } catch (error) {
      throw new SealedKeyUnreadableError((error as Error).message);
    }
    await tx.keyRequest.update({ where: { id: requestId }, data: { sealedApiKey: null } });
    const key = await tx.apiKey.findUniqueOrThrow({
      where: { id: row.api_key_id },
      select: { prefix: true },
    });
    return { plaintext, prefix: key.prefix };
  });
}

/**
 * Replaces the uncollected key with this prefix: the old one revoked, a new one made and sealed
 * on its request for the same status link. Null when no uncollected key has the prefix (made by
 * hand, collected already, or revoked). Run it in a transaction, with the audit entry.
 */
export async function reissueApiKey(
  prisma: DecisionClient,
  prefix: string,
  sealer: Pick<SecretSealer, 'seal'>,
): Promise<{ readonly request: KeyRequest; readonly prefix: string } | null> {
  const request = await prisma.keyRequest.findFirst({
    where: { sealedApiKey: { not: null }, apiKey: { prefix, revokedAt: null } },
  });
  if (request === null) return null;
  // Erased on condition first: this locks the row against a collection at the same moment, and
  // whichever comes second finds the old key gone (collection: it sees the new one).
  const { count } = await prisma.keyRequest.updateMany({
    where: { id: request.id, apiKeyId: request.apiKeyId, sealedApiKey: { not: null } },
    data: { sealedApiKey: null },
  });
  if (count !== 1) return null;
  await prisma.apiKey.update({ where: { prefix }, data: { revokedAt: new Date() } });
  const reissued = await attachNewKey(prisma, request, sealer);
  return { request: reissued, prefix: reissued.apiKeyPrefix };
}
