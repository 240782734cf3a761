import { availableParallelism } from 'node:os';
import { z } from 'zod';

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65_535, 'must be between 1 and 65535');

const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();

function url(protocols: readonly string[]) {
  return z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}` },
  );
}

/**
 * Every environment variable a Hallmark process reads, with its default. `.env.example` at the
 * root lists the same variables (a test keeps the two in step). Defaults make one machine work
 * with no accounts: local PostgreSQL and Redis on their standard ports.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  DATABASE_URL: url(['postgres:', 'postgresql:']).default(
    'postgresql://postgres@127.0.0.1:5432/hallmark',
  ),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9:_-]+$/, 'may hold only letters, digits, ":", "_" and "-"')
    .default('hallmark'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: positiveInt.default(availableParallelism()),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(30_000),
});

export type HallmarkConfig = z.infer<typeof configSchema>;
