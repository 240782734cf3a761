import type { HallmarkConfig, Logger } from '@hallmark/config';
import { loadServiceKeys, type ServiceKeys } from '@hallmark/service-keys';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { createMailer } from '../mail/index.ts';
import { createObjectStorage } from '../object-storage.ts';
import { IpfsNode } from './ipfs-node.ts';
import { PrismaService } from './prisma.service.ts';
import { CONFIG, LOGGER, MAILER, OBJECT_STORAGE, SERVICE_KEYS } from './tokens.ts';
import { TrustAnchors } from './trust-anchors.ts';

/**
 * What every Nest process of Hallmark injects: the configuration (validated once, in main.ts),
 * the logger, the database client, the service keys and the drivers (object storage, the IPFS
 * node, the mailer, the trust anchors), each made here once for the API and the worker alike.
 * Built from values so tests can hand in their own.
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
        { provide: SERVICE_KEYS, useFactory: () => loadServiceKeys(config) },
        {
          provide: OBJECT_STORAGE,
          inject: [SERVICE_KEYS],
          useFactory: (keys: ServiceKeys) => createObjectStorage(config, keys),
        },
        { provide: MAILER, useFactory: () => createMailer(config, logger) },
        IpfsNode,
        TrustAnchors,
      ],
      exports: [
        CONFIG,
        LOGGER,
        PrismaService,
        SERVICE_KEYS,
        OBJECT_STORAGE,
        MAILER,
        IpfsNode,
        TrustAnchors,
      ],
    };
  }
}
