import { randomBytes } from 'node:crypto';
import {
  audited,
  changeOperator,
  endOperatorSessions,
  hashPassword,
  LastAdminError,
  type Operator,
  resetOperatorPassword,
} from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { type AdminOperator, type AdminOperatorChange, problemTypes } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import type { AuditActor } from './audit-actor.ts';

/**
 * The console's operators, for admins: who they are, and what another admin may do to an
 * account that should no longer act (disable it, demote it, end its sessions, give it a new
 * password). Every change is audited with it.
 */
@Injectable()
export class AdminOperatorsService {
  constructor(private readonly prisma: PrismaService) {}

  async list(): Promise<{ items: AdminOperator[] }> {
    const [rows, sessions] = await Promise.all([
      this.prisma.client.operator.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      this.prisma.client.operatorSession.groupBy({
        by: ['operatorId'],
        where: liveSessions(),
        _count: { _all: true },
      }),
    ]);
    const live = new Map(sessions.map((group) => [group.operatorId, group._count._all]));
    return { items: rows.map((row) => view(row, live.get(row.id) ?? 0)) };
  }

  async change(id: string, change: AdminOperatorChange, who: AuditActor): Promise<AdminOperator> {
    const changed = await audited(
      this.prisma.client,
      (tx) => changeOperator(tx, id, change),
      (done) =>
        done === null
          ? null
          : {
              ...who,
              action: 'operator.change',
              target: `operator:${done.email}`,
              details: change,
            },
    ).catch((error: unknown) => {
      if (error instanceof LastAdminError) {
        throw new ProblemException(
          problemTypes.lastAdmin,
          'This would leave no enabled admin; make another operator admin first. Nothing changed.',
        );
      }
      throw error;
    });
    return this.#view(found(changed, id));
  }

  /** Ends every live session of the operator. */
  async signOut(id: string, who: AuditActor): Promise<AdminOperator> {
    const target = await audited(
      this.prisma.client,
      async (tx) => {
        const account = await tx.operator.findUnique({ where: { id } });
        if (account === null) return null;
        return { account, ended: await endOperatorSessions(tx, id) };
      },
      (done) =>
        done === null
          ? null
          : {
              ...who,
              action: 'operator.sign_out_all',
              target: `operator:${done.account.email}`,
              details: { sessions: done.ended },
            },
    );
    return this.#view(found(target?.account ?? null, id));
  }

  /** A generated password, in this answer only. */
  async resetPassword(id: string, who: AuditActor): Promise<AdminOperator> {
    const password = randomBytes(18).toString('base64url');
    // Hashed before the transaction: scrypt's time is not spent holding it open.
    const passwordHash = await hashPassword(password);
    const reset = await audited(
      this.prisma.client,
      (tx) => resetOperatorPassword(tx, id, passwordHash),
      (done) =>
        done === null
          ? null
          : {
              ...who,
              action: 'operator.password_reset',
              target: `operator:${done.email}`,
            },
    );
    return { ...(await this.#view(found(reset, id))), password };
  }

  async #view(row: Operator): Promise<AdminOperator> {
    const sessions = await this.prisma.client.operatorSession.count({
      where: { operatorId: row.id, ...liveSessions() },
    });
    return view(row, sessions);
  }
}

function liveSessions() {
  return { endedAt: null, expiresAt: { gt: new Date() } };
}

function view(row: Operator, activeSessions: number): AdminOperator {
  return {
    operatorId: row.id,
    email: row.email,
    role: row.role,
    disabledAt: row.disabledAt === null ? null : unixSeconds(row.disabledAt),
    lockedUntil:
      row.lockedUntil === null || row.lockedUntil <= new Date()
        ? null
        : unixSeconds(row.lockedUntil),
    activeSessions,
    createdAt: unixSeconds(row.createdAt),
  };
}

function found(row: Operator | null, id: string): Operator {
  if (row === null) throw ProblemException.notFound(`No operator ${id}.`);
  return row;
}
