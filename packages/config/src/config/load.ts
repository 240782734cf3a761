import { configSchema, type HallmarkConfig } from './schema.ts';

/** Thrown when the environment is unusable; the message names every wrong variable at once. */
export class ConfigError extends Error {
  readonly variables: readonly string[];

  constructor(problems: ReadonlyArray<{ variable: string; message: string }>) {
    const lines = problems.map((p) => `  ${p.variable}: ${p.message}`);
    super(`Invalid configuration (${problems.length} variable(s)):\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.variables = problems.map((p) => p.variable);
  }
}

/** Reads the configuration from an environment. Empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HallmarkConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = configSchema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(environment)'),
      message: issue.message,
    })),
  );
}

/**
 * Start-up helper for a process entry point: a bad environment ends the process with one clear
 * message and exit code 78 (EX_CONFIG) instead of a stack trace.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): HallmarkConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
