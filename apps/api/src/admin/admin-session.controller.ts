import type { Operator } from '@hallmark/db';
import { endSession, signIn } from '@hallmark/db';
import { CONFIG, type HallmarkConfig, PrismaService, publicBaseUrl } from '@hallmark/platform';
import { type AdminSession, AdminSignIn, problemTypes } from '@hallmark/schemas';
import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentOperator } from '../auth/client.ts';
import { Public } from '../auth/public.decorator.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { cookieOf, OperatorSessions, SESSION_COOKIE } from './operator-sessions.ts';

const MAX_FAILURES = 5;
const LOCK_MS = 15 * 60_000;

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
  ) {
    this.#secure = publicBaseUrl(config).startsWith('https:');
    this.#sessionMs = config.ADMIN_SESSION_HOURS * 3_600_000;
  }

  /** Public (no session yet), limited per address; five failures lock the account 15 minutes. */
  @Public()
  @Post()
  @HttpCode(201)
  async signIn(
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminSession> {
    const { email, password } = parseRequest(AdminSignIn, body, 'body');
    const result = await signIn(this.prisma.client, email, password, {
      maxFailures: MAX_FAILURES,
      lockMs: LOCK_MS,
      sessionMs: this.#sessionMs,
    });
    if (result.kind === 'locked') {
      const seconds = Math.max(1, Math.ceil((result.until.getTime() - Date.now()) / 1000));
      throw new ProblemException(
        problemTypes.rateLimited,
        `Too many failed sign-ins: this account is locked for ${seconds} s.`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
    if (result.kind === 'refused') {
      throw new ProblemException(problemTypes.unauthorized, 'Wrong email or password.');
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
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await endSession(this.prisma.client, cookieOf(request, SESSION_COOKIE) ?? '');
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
  }
}
