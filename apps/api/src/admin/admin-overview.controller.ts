import type { AdminOverview } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { Operation } from '../routing/operation.decorator.ts';
import { AdminOverviewService } from './admin-overview.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';

/** What an operator looks at first: dependencies, the queue, the last day's jobs, what is late. */
@AdminRoute()
@Controller()
export class AdminOverviewController {
  constructor(private readonly overviews: AdminOverviewService) {}

  @Operation(ROUTES.getOverview)
  overview(): Promise<AdminOverview> {
    return this.overviews.overview();
  }
}
