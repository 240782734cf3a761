import { z } from 'zod';

/** Answer of `GET /health`: the process is up. Says nothing about its dependencies. */
export const Health = z
  .strictObject({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'Liveness: the API process answers.' });
export type Health = z.infer<typeof Health>;

export const DependencyStatus = z.enum(['up', 'down']);
export type DependencyStatus = z.infer<typeof DependencyStatus>;

export const DependencyCheck = z
  .strictObject({
    status: DependencyStatus,
    error: z.string().optional().meta({ description: 'Why the dependency is down.' }),
  })
  .meta({ id: 'DependencyCheck', description: 'Whether one dependency answers.' });
export type DependencyCheck = z.infer<typeof DependencyCheck>;

/** Also carries `error`: the check itself can fail, e.g. when PostgreSQL is unreachable. */
export const MigrationsCheck = z
  .strictObject({
    ...DependencyCheck.shape,
    pending: z
      .array(z.string())
      .optional()
      .meta({ description: 'Names of migrations not yet applied.' }),
  })
  .meta({
    id: 'MigrationsCheck',
    description: 'Whether the database schema is current; `down` while migrations are pending.',
  });
export type MigrationsCheck = z.infer<typeof MigrationsCheck>;

/**
 * Answer of `GET /ready`, sent with 200 when ready and 503 when not, so a load balancer can use
 * the status code alone while an operator reads which check failed.
 */
export const Readiness = z
  .strictObject({
    status: z.enum(['ready', 'not_ready']),
    checks: z.strictObject({
      postgres: DependencyCheck,
      redis: DependencyCheck,
      migrations: MigrationsCheck,
    }),
  })
  .meta({
    id: 'Readiness',
    description: 'Readiness: `ready` only when every check is `up`.',
    examples: [
      {
        status: 'not_ready',
        checks: {
          postgres: { status: 'up' },
          redis: { status: 'down', error: 'connect ECONNREFUSED 127.0.0.1:6379' },
          migrations: { status: 'up' },
        },
      },
    ],
  });
export type Readiness = z.infer<typeof Readiness>;
