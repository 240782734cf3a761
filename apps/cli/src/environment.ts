import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEnv } from 'node:util';
import { configSchema, publicBaseUrl } from '@hallmark/config';
import { z } from 'zod';
import { UsageError } from './io.ts';

export interface CliEnvironment {
  env: NodeJS.ProcessEnv;
  /** The `.env` file that was read, if any. */
  envFile?: string;
}

/**
 * The variables a command sees: the process's own, over those of the nearest `.env` from `cwd`
 * upwards. Inside a clone that is the root `.env` that `pnpm start` reads, so the CLI talks to
 * the same server and database as the service started there; an exported variable still wins,
 * as with `node --env-file`.
 */
export function loadCliEnvironment(cwd: string, env: NodeJS.ProcessEnv): CliEnvironment {
  const envFile = nearestEnvFile(cwd);
  if (envFile === undefined) return { env };
  return { env: { ...parseEnv(readFileSync(envFile, 'utf8')), ...env }, envFile };
}

function nearestEnvFile(from: string): string | undefined {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, '.env');
    if (existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
}

const serverAddress = z.object({
  HOST: configSchema.shape.HOST,
  PORT: configSchema.shape.PORT,
  PUBLIC_URL: configSchema.shape.PUBLIC_URL,
});

const publicAddresses = serverAddress.extend({
  ADMIN_PUBLIC_URL: configSchema.shape.ADMIN_PUBLIC_URL,
});

function settingsOf<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${issue?.path.join('.') ?? 'the environment'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/**
 * The API the remote commands call: HALLMARK_URL, else the address the service started with
 * the same variables answers on (PUBLIC_URL, else HOST and PORT), as the service computes it.
 */
export function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  const url = env.HALLMARK_URL?.trim();
  if (url) return url;
  return publicBaseUrl(settingsOf(serverAddress, env));
}

/**
 * The settings behind the service's public addresses (PUBLIC_URL, else HOST and PORT; and
 * ADMIN_PUBLIC_URL): the links the server-side commands mail name the service as it names itself.
 */
export function publicAddressSettings(env: NodeJS.ProcessEnv): z.infer<typeof publicAddresses> {
  return settingsOf(publicAddresses, env);
}
