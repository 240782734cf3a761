import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase } from './database-admin.ts';
import { withDatabaseName } from './database-url.ts';

export interface TemporaryDatabase {
  readonly name: string;
  readonly url: string;
  /** Ends its connections and drops it; safe to call twice. */
  drop(): Promise<void>;
}

/** A new empty database `<prefix>_<random>` on the server of `serverUrl`. */
export async function createTemporaryDatabase(
  serverUrl: string,
  prefix: string,
): Promise<TemporaryDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await createDatabase(serverUrl, name);
  return {
    name,
    url: withDatabaseName(serverUrl, name),
    drop: () => dropDatabase(serverUrl, name),
  };
}
