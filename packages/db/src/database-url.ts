/** The database a developer gets when DATABASE_URL is not set. */
export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/hallmark';

export function databaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim();
  return url ? url : DEFAULT_DATABASE_URL;
}

/** The database name in a postgres:// URL; required, because pg's fallback (the user name) surprises. */
export function databaseNameOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`The database URL names no database: ${redactPassword(databaseUrl)}`);
  return name;
}

/** The same server and credentials, another database (options such as sslmode are kept). */
export function withDatabaseName(databaseUrl: string, databaseName: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(databaseName)}`;
  return url.toString();
}

/** `host:port` as pg resolves it, for error messages. */
export function serverAddressOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  // A `host` query parameter (e.g. a Unix socket directory) wins over the authority, as in libpq.
  const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
  const port = url.searchParams.get('port') ?? (url.port || '5432');
  return `${host}:${port}`;
}

export function redactPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparsable database URL>';
  }
}
