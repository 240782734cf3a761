import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { HallmarkConfig } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import { PrismaService } from './prisma.service.ts';
import { CONFIG, LOGGER } from './tokens.ts';

/**
 * What every Nest process of Hallmark injects: the configuration (validated once, in main.ts),
 * the logger and the database client. Built from values so tests can hand in their own.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: HallmarkConfig, logger: Logger): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        PrismaService,
      ],
      exports: [CONFIG, LOGGER, PrismaService],
    };
  }
}
