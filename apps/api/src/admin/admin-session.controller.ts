import { type HallmarkConfig, publicBaseUrl } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import type { AdminSession } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentOperator, type Operator } from '../auth/client.ts';
import { Public } from '../auth/public.decorator.ts';
import { clientAddress } from '../client-address.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { cookieOf, OperatorSessions, SESSION_COOKIE } from './operator-sessions.ts';

/** Operators sign in and out of the admin console. */
@AdminRoute()
@Controller()
export class AdminSessionController {
  readonly #secure: boolean;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly sessions: OperatorSessions,
    private readonly rateLimiter: RateLimiter,
  ) {
    this.#secure = publicBaseUrl(config).startsWith('https:');
  }

  /** Public (no session yet): ten tries per email and address, then 429; then the account lock. */
  @Public()
  @Operation(ROUTES.signIn)
  async signIn(
    @Input() { body }: InputOf<'signIn'>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminSession> {
    const address = clientAddress(request);
    reply.headers(await this.rateLimiter.enforce({ kind: 'sign-in', email: body.email, address }));
    const { operator, token } = await this.sessions.start(body.email, body.password, address);
    const attributes = [
      `${SESSION_COOKIE}=${token}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      `Max-Age=${Math.floor(this.sessions.lifetimeMs / 1000)}`,
      ...(this.#secure ? ['Secure'] : []),
    ];
    reply.header('set-cookie', attributes.join('; '));
    return {
      email: operator.email,
      role: operator.role,
      csrfToken: this.sessions.csrfTokenFor(token),
    };
  }

  @Operation(ROUTES.getSession)
  current(@CurrentOperator() operator: Operator, @Req() request: FastifyRequest): AdminSession {
    return {
      email: operator.email,
      role: operator.role,
      csrfToken: this.sessions.csrfTokenFor(cookieOf(request, SESSION_COOKIE) ?? ''),
    };
  }

  /** Signing out is a change: it needs the CSRF token (any role may sign itself out). */
  @AdminRoute({ viewersToo: true })
  @Operation(ROUTES.signOut)
  async signOut(
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const token = cookieOf(request, SESSION_COOKIE) ?? '';
    await this.sessions.end(token, operator, clientAddress(request));
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
  }
}
