import { createPrismaClient, type PrismaClient } from '@hallmark/db';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { HallmarkConfig } from '../config/index.ts';
import { CONFIG } from './tokens.ts';

/** The process's one Prisma client; connections open lazily and close on shutdown. */
@Injectable()
export class PrismaService implements OnModuleDestroy {
  readonly client: PrismaClient;

  constructor(@Inject(CONFIG) config: HallmarkConfig) {
    this.client = createPrismaClient(config.DATABASE_URL);
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.$disconnect();
  }
}
