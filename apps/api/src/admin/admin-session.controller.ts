import type { Operator } from '@hallmark/db';
import { endSession, signIn } from '@hallmark/db';
import { CONFIG, type HallmarkConfig, PrismaService, publicBaseUrl } from '@hallmark/platform';
import { type AdminSession, AdminSignIn, problemTypes } from '@hallmark/schemas';
import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentOperator } from '../auth/client.ts';
import { Public } from '../auth/public.decorator.ts';
import { clientAddress } from '../client-address.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { cookieOf, OperatorSessions, SESSION_COOKIE } from './operator-sessions.ts';

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

/** Operators sign in and out of the admin console. */
@AdminRoute()
@Controller('admin/session')
export class AdminSessionController {
  readonly #secure: boolean;
  readonly #sessionMs: number;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly sessions: OperatorSessions,
    private readonly rateLimiter: RateLimiter,
  ) {
    this.#secure = publicBaseUrl(config).startsWith('https:');
    this.#sessionMs = config.ADMIN_SESSION_HOURS * 3_600_000;
  }

  /** Public (no session yet): ten tries per email and address, then 429; see MAX_FAILURES. */
  @Public()
  @Post()
  @HttpCode(201)
  async signIn(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminSession> {
    const { email, password } = parseRequest(AdminSignIn, body, 'body');
    reply.headers(
      await this.rateLimiter.enforce({ kind: 'sign-in', email, address: clientAddress(request) }),
    );
    const result = await signIn(
      this.prisma.client,
      email,
      password,
      { maxFailures: MAX_FAILURES, lockMs: LOCK_MS, sessionMs: this.#sessionMs },
      clientAddress(request),
    );
    if (result.kind !== 'signed_in') {
      throw new ProblemException(problemTypes.unauthorized, REFUSED);
    }
    const attributes = [
      `${SESSION_COOKIE}=${result.token}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      `Max-Age=${Math.floor(this.#sessionMs / 1000)}`,
      ...(this.#secure ? ['Secure'] : []),
    ];
    reply.header('set-cookie', attributes.join('; '));
    return {
      email: result.operator.email,
      role: result.operator.role,
      csrfToken: this.sessions.csrfTokenFor(result.token),
    };
  }

  @Get()
  current(@CurrentOperator() operator: Operator, @Req() request: FastifyRequest): AdminSession {
    return {
      email: operator.email,
      role: operator.role,
      csrfToken: this.sessions.csrfTokenFor(cookieOf(request, SESSION_COOKIE) ?? ''),
    };
  }

  /** Signing out is a change: it needs the CSRF token (any role may sign itself out). */
  @AdminRoute({ viewersToo: true })
  @Delete()
  @HttpCode(204)
  async signOut(
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await endSession(
      this.prisma.client,
      cookieOf(request, SESSION_COOKIE) ?? '',
      operator,
      clientAddress(request),
    );
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
  }
}
