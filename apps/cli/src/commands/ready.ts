import { parseArgs } from 'node:util';
import { HallmarkClient } from '@hallmark/sdk';
import { apiBaseUrl } from '../environment.ts';
import type { Command } from '../io.ts';

/** Asks a running server whether it can serve traffic and shows the state of each dependency. */
export const ready: Command = async (args, io) => {
  const { values } = parseArgs({
    args,
    options: { url: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const baseUrl = values.url ?? apiBaseUrl(io.env);
  // A probe reports what it sees now: no retries on a refused connection.
  const client = new HallmarkClient({ baseUrl, retry: { retries: 0 } });
  const readiness = await client.getReadiness();
  if (values.json) {
    io.stdout(`${JSON.stringify(readiness, null, 2)}\n`);
  } else {
    io.stdout(`${readiness.status}\n`);
    for (const [name, check] of Object.entries(readiness.checks)) {
      io.stdout(`  ${name.padEnd(11)} ${check.status}\n`);
    }
  }
  if (readiness.status !== 'ready' && !values.json) {
    // The public answer says only up or down; the API logs why.
    io.stderr('the reasons are in the API log ("readiness: dependency is down")\n');
  }
  return readiness.status === 'ready' ? 0 : 1;
};
