import { createHmac } from 'node:crypto';
import { type Operator, operatorOfSession } from '@hallmark/db';
import {
  CONFIG,
  type HallmarkConfig,
  PrismaService,
  SERVICE_KEYS,
  type ServiceKeys,
} from '@hallmark/platform';
import { problemTypes } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '../problem/problem.exception.ts';
import type { AdminRouteOptions } from './admin-route.decorator.ts';

export const SESSION_COOKIE = 'hallmark_session';

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

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
    private readonly prisma: PrismaService,
  ) {
    this.#idleMs = config.ADMIN_SESSION_IDLE_MINUTES * 60_000;
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
