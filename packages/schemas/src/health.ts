import { z } from 'zod';

/** Answer of `GET /health`: the process is up. Says nothing about its dependencies. */
export const Health = z
  .strictObject({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'Liveness: the API process answers.' });
export type Health = z.infer<typeof Health>;

export const DependencyStatus = z.enum(['up', 'down']);
export type DependencyStatus = z.infer<typeof DependencyStatus>;

/**
 * Only up or down: `/ready` is public, and why a dependency is down (host names, driver errors,
 * pending migration names) is for operators, who find it in the API's log.
 */
export const DependencyCheck = z
  .strictObject({ status: DependencyStatus })
  .meta({ id: 'DependencyCheck', description: 'Whether one dependency answers.' });
export type DependencyCheck = z.infer<typeof DependencyCheck>;

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
      migrations: DependencyCheck.meta({
        description: '`down` while migrations are pending or cannot be read.',
      }),
    }),
  })
  .meta({
    id: 'Readiness',
    description:
      'Readiness: `ready` only when every check is `up`. Answered from a cache of at most one second; the reasons of a `down` are in the API log.',
    examples: [
      {
        status: 'not_ready',
        checks: {
          postgres: { status: 'up' },
          redis: { status: 'down' },
          migrations: { status: 'up' },
        },
      },
    ],
  });
export type Readiness = z.infer<typeof Readiness>;
