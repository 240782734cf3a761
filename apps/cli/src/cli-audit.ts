import { hostname, userInfo } from 'node:os';
import type { NewAuditEntry } from '@hallmark/db';
import type { CliIo } from './io.ts';

/**
 * Who an audit entry says acted when the CLI changes the database on the server: no operator
 * signed in, so the system user and the host it ran on.
 */
export function byCli(io: CliIo): Pick<NewAuditEntry, 'operatorId' | 'actor' | 'address'> {
  const user = io.env.USER || io.env.LOGNAME || userInfo().username;
  return { operatorId: null, actor: `cli:${user}`, address: hostname() };
}
