import type { AdminActivity, AdminKeyUsage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminActivityService } from './admin-activity.service.ts';
import { AdminKeyUsageService } from './admin-key-usage.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';

/** The console's charts: the service's activity hour by hour, a key's usage day by day. */
@AdminRoute()
@Controller()
export class AdminActivityController {
  constructor(
    private readonly activities: AdminActivityService,
    private readonly usages: AdminKeyUsageService,
  ) {}

  @Operation(ROUTES.getActivity)
  activity(@Input() { query }: InputOf<'getActivity'>): Promise<AdminActivity> {
    return this.activities.activity(query.range);
  }

  @Operation(ROUTES.getApiKeyUsage)
  usage(@Input() { params }: InputOf<'getApiKeyUsage'>): Promise<AdminKeyUsage> {
    return this.usages.usage(params.prefix);
  }
}
