import type { Health, Readiness } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.ts';
import { Operation } from '../routing/operation.decorator.ts';
import { ReadinessService } from './readiness.service.ts';

@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Liveness: the process answers. Never touches a dependency, so a restart loop cannot start. */
  @Public({ limited: false })
  @Operation(ROUTES.getHealth)
  health(): Health {
    return { status: 'ok' };
  }

  /**
   * Readiness: 200 when every dependency is up, 503 naming the ones that are not (only up or
   * down: the reasons are in the log). Limited per address like every anonymous route.
   */
  @Operation(ROUTES.getReadiness)
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const readiness = await this.readiness.check();
    reply.status(readiness.status === 'ready' ? 200 : 503);
    return readiness;
  }
}
