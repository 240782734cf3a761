import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase } from './database-admin.ts';
import { withDatabaseName } from './database-url.ts';
import { copyDatabase } from './template-database.ts';

export interface TemporaryDatabase {
  readonly name: string;
  readonly url: string;
  /** Ends its connections and drops it; safe to call twice. */
  drop(): Promise<void>;
}

/**
 * A new database `<prefix>_<random>` on the server of `serverUrl`: empty, or a copy of the
 * database named `template`.
 */
export async function createTemporaryDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<TemporaryDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  if (template === undefined) await createDatabase(serverUrl, name);
  else await copyDatabase(serverUrl, template, name);
  return {
    name,
    url: withDatabaseName(serverUrl, name),
    drop: () => dropDatabase(serverUrl, name),
  };
}
