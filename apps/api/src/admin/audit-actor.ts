import type { NewAuditEntry, Operator } from '@hallmark/db';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../client-address.ts';

/** Who acted, as an audit entry names them. */
export type AuditActor = Pick<NewAuditEntry, 'operatorId' | 'actor' | 'address'>;

/** Who an audit entry says acted: the signed-in operator, from the browser's address. */
export function byOperator(
  operator: Pick<Operator, 'id' | 'email'>,
  request: FastifyRequest,
): AuditActor {
  return { operatorId: operator.id, actor: operator.email, address: clientAddress(request) };
}
