// Creating and dropping databases: plain SQL over a short-lived pg client, because these are
// server-level statements that Prisma cannot run inside the database they concern.
import pg from 'pg';
import { DatabaseUnreachableError, isUnreachableError } from './database-unreachable-error.ts';
import { databaseNameOf, serverAddressOf, withDatabaseName } from './database-url.ts';

// A down server should fail start-up in seconds, not hang on a black-holed address.
const CONNECT_TIMEOUT_MS = 5_000;
// Where CREATE/DROP DATABASE run: `postgres` normally exists; `template1` always does.
const MAINTENANCE_DATABASES = ['postgres', 'template1'];
const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
// DROP DATABASE while sessions remain ("database ... is being accessed by other users").
const OBJECT_IN_USE = '55006';
// Only a hang ends the retries of a drop whose sessions are still going away.
const DROP_IN_USE_RETRY_MS = 120_000;

export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Runs `work` on a fresh connection and always closes it. Unreachable server: DatabaseUnreachableError. */
export async function withPgClient<T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // Without a listener, an error on an idle client (server restart) would crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    if (isUnreachableError(error)) {
      throw new DatabaseUnreachableError(serverAddressOf(databaseUrl), { cause: error });
    }
    throw error;
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function withMaintenanceClient<T>(
  serverUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  let lastError: unknown;
  for (const maintenanceDatabase of MAINTENANCE_DATABASES) {
    try {
      return await withPgClient(withDatabaseName(serverUrl, maintenanceDatabase), work);
    } catch (error) {
      if (pgErrorCode(error) !== INVALID_CATALOG_NAME) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * Creates the database named in `databaseUrl` when it does not exist yet (what `prisma migrate`
 * does before migrating). Safe to race: a concurrent creation counts as "exists".
 */
export async function ensureDatabase(databaseUrl: string): Promise<{ created: boolean }> {
  try {
    await withPgClient(databaseUrl, async () => {});
    return { created: false };
  } catch (error) {
    if (pgErrorCode(error) !== INVALID_CATALOG_NAME) throw error;
  }
  const created = await createDatabase(databaseUrl, databaseNameOf(databaseUrl)).then(
    () => true,
    (error: unknown) => {
      if (pgErrorCode(error) === DUPLICATE_DATABASE) return false;
      throw error;
    },
  );
  return { created };
}

/** CREATE DATABASE on the server of `serverUrl` (whatever database that URL names). */
export async function createDatabase(serverUrl: string, databaseName: string): Promise<void> {
  await withMaintenanceClient(serverUrl, async (client) => {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(databaseName)}`);
  });
}

/**
 * Drops a database after ending its sessions (a leftover pool would otherwise make DROP fail).
 * `WITH (FORCE)` would do the same but needs PostgreSQL 13. A session can outlive its termination
 * (or a pool open a new one) past the few seconds DROP waits, on a loaded server: then both steps
 * run again, for at most DROP_IN_USE_RETRY_MS.
 */
export async function dropDatabase(serverUrl: string, databaseName: string): Promise<void> {
  const deadline = Date.now() + DROP_IN_USE_RETRY_MS;
  await withMaintenanceClient(serverUrl, async (client) => {
    for (;;) {
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [databaseName],
      );
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(databaseName)}`);
        return;
      } catch (error) {
        if (pgErrorCode(error) !== OBJECT_IN_USE || Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}
