// The key request's states, all changed here and nowhere else:
//
//   createKeyRequest ──▶ pending ──decideKeyRequest──▶ approved ──collectApiKey──▶ approved + key
//                           │                                       (once: the row is locked)
//                           └──────decideKeyRequest──▶ rejected
//
// A decision is taken only from pending (two operators deciding at once: one wins, the other
// reads "decided already"); a key is made only for an approved request that has none yet.

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
): Promise<(KeyRequest & { apiKey: { prefix: string } | null }) | null> {
  return prisma.keyRequest.findFirst({
    where: { id, tokenHash },
    include: { apiKey: { select: { prefix: true } } },
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

export type KeyRequestDecision =
  | { readonly approve: true; readonly by: string }
  | { readonly approve: false; readonly reason: string; readonly by: string };

/** Decides a pending request; null when it is not pending (decided already, or unknown). */
export async function decideKeyRequest(
  prisma: Pick<PrismaClient, 'keyRequest'>,
  id: string,
  decision: KeyRequestDecision,
): Promise<KeyRequest | null> {
  const { count } = await prisma.keyRequest.updateMany({
    where: { id, status: 'pending' },
    data: {
      status: decision.approve ? 'approved' : 'rejected',
      reason: decision.approve ? null : decision.reason,
      decidedAt: new Date(),
      decidedBy: decision.by,
    },
  });
  return count === 1 ? prisma.keyRequest.findUnique({ where: { id } }) : null;
}

/**
 * The key of an approved request, made on its first collection and returned in clear that once;
 * null when the request is not approved or its key was collected already. The request row is
 * locked while the key is made, so two views at once cannot make two keys.
 */
export async function collectApiKey(
  prisma: PrismaClient,
  requestId: string,
): Promise<{ readonly plaintext: string; readonly prefix: string } | null> {
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      Array<{ status: string; api_key_id: string | null; company_name: string }>
    >`
      SELECT status, api_key_id, company_name FROM key_requests WHERE id = ${requestId}::uuid FOR UPDATE`;
    if (row === undefined || row.status !== 'approved' || row.api_key_id !== null) return null;
    const key = generateApiKey();
    const created = await tx.apiKey.create({
      data: { name: row.company_name, prefix: key.prefix, hash: key.hash },
    });
    await tx.keyRequest.update({ where: { id: requestId }, data: { apiKeyId: created.id } });
    return { plaintext: key.plaintext, prefix: key.prefix };
  });
}
