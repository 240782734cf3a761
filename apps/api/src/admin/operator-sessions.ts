import { createHmac } from 'node:crypto';
import { type HallmarkConfig } from '@hallmark/config';
import { endSession, type Operator, operatorOfSession, signIn } from '@hallmark/db';
import { CONFIG, PrismaService, SERVICE_KEYS, type ServiceKeys } from '@hallmark/runtime';
import { problemTypes } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '../problem/problem.exception.ts';
import type { AdminRouteOptions } from './admin-route.decorator.ts';

export const SESSION_COOKIE = 'hallmark_session';

/**
 * Failed sign-ins, from any addresses, that lock an account for LOCK_MS. Each address has its own
 * ten tries per email first (the limiter's sign-in bucket), so this is reached only by guesses
 * from many addresses, and one stranger cannot lock an operator out.
 */
const MAX_FAILURES = 50;
const LOCK_MS = 15 * 60_000;
/**
 * A wrong password, an unknown email and a locked account answer alike, after the same scrypt:
 * the answer never tells whether an email is an operator's.
 */
const REFUSED =
  'Wrong email or password (after many failed sign-ins an account also waits 15 minutes).';

/** The value of one cookie of the request, if sent. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * Operators' sessions: the cookie's token names a session row; the CSRF token is an HMAC of it
 * under a service key, so it needs no storage and is worthless without the cookie (and the
 * cookie worthless to another site without it: SameSite=Strict, and changes need the header).
 */
@Injectable()
export class OperatorSessions {
  readonly #idleMs: number;
  /** How long a session lasts at most, in milliseconds. */
  readonly lifetimeMs: number;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
    private readonly prisma: PrismaService,
  ) {
    this.#idleMs = config.ADMIN_SESSION_IDLE_MINUTES * 60_000;
    this.lifetimeMs = config.ADMIN_SESSION_HOURS * 3_600_000;
  }

  /** Signs an operator in (audited, failures too): the new session's token, or a 401. */
  async start(
    email: string,
    password: string,
    address: string,
  ): Promise<{ readonly operator: Operator; readonly token: string }> {
    const limits = { maxFailures: MAX_FAILURES, lockMs: LOCK_MS, sessionMs: this.lifetimeMs };
    const result = await signIn(this.prisma.client, email, password, limits, address);
    if (result.kind !== 'signed_in') throw new ProblemException(problemTypes.unauthorized, REFUSED);
    return { operator: result.operator, token: result.token };
  }

  /** Ends the session of `token` (audited). */
  async end(token: string, operator: Operator, address: string): Promise<void> {
    await endSession(this.prisma.client, token, operator, address);
  }

  csrfTokenFor(sessionToken: string): string {
    return createHmac('sha256', this.keys.accessTokens)
      .update(`csrf:${sessionToken}`)
      .digest('base64url');
  }

  /** The operator of the request's session; 401 without a live one, 403 for a change refused. */
  async authorize(request: FastifyRequest, options: AdminRouteOptions): Promise<Operator> {
    const token = cookieOf(request, SESSION_COOKIE);
    const operator =
      token === undefined ? null : await operatorOfSession(this.prisma.client, token, this.#idleMs);
    if (token === undefined || operator === null) {
      throw new ProblemException(problemTypes.unauthorized, 'Sign in to the admin console.');
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (options.adminsOnly === true && operator.role !== 'admin') {
        throw new ProblemException(problemTypes.forbidden, 'Only admins may read this.');
      }
      return operator;
    }
    if (request.headers['x-csrf-token'] !== this.csrfTokenFor(token)) {
      throw new ProblemException(
        problemTypes.forbidden,
        'A change needs the X-CSRF-Token of this session; nothing was changed.',
      );
    }
    if (operator.role !== 'admin' && options.viewersToo !== true) {
      throw new ProblemException(
        problemTypes.forbidden,
        'Viewers cannot change anything; nothing was changed.',
      );
    }
    return operator;
  }
}
