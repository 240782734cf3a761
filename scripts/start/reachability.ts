// Plain TCP checks of PostgreSQL and Redis, run before anything is built, so that a missing
// service is named at once together with the command that starts it.
import { connect } from 'node:net';

export interface Endpoint {
  host: string;
  port: number;
}

export function endpointOf(url: string, defaultPort: number): Endpoint {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

/** Resolves with the first line the server sends back after `greeting`, or rejects. */
export function ask(
  endpoint: Endpoint,
  greeting: string | null,
  timeoutMs = 2_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no answer within ${timeoutMs} ms`)));
    socket.once('error', fail);
    socket.once('connect', () => {
      if (greeting === null) {
        socket.end();
        resolve('');
      } else {
        socket.write(greeting);
      }
    });
    socket.once('data', (data) => {
      socket.end();
      resolve(data.toString('utf8').split('\r\n')[0] ?? '');
    });
  });
}

export const HOW_TO_START = {
  postgres: [
    'Start PostgreSQL, for example:',
    '  docker compose -f infra/compose.yaml up -d postgres',
    '  or, on a Debian host: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  ].join('\n'),
  redis: [
    'Start Redis, for example:',
    '  docker compose -f infra/compose.yaml up -d redis',
    '  or: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  ].join('\n'),
} as const;

/** Returns one message per unreachable service; empty when both answer. */
export async function findUnreachable(databaseUrl: string, redisUrl: string): Promise<string[]> {
  const postgres = endpointOf(databaseUrl, 5432);
  const redis = endpointOf(redisUrl, 6379);
  const [pg, rd] = await Promise.allSettled([
    ask(postgres, null),
    ask(redis, 'PING\r\n').then((line) => {
      // A password-protected Redis answers -NOAUTH: it is up, the URL carries the password.
      if (!line.startsWith('+PONG') && !line.includes('NOAUTH')) throw new Error(line);
    }),
  ]);
  const problems: string[] = [];
  if (pg.status === 'rejected') {
    problems.push(
      `PostgreSQL is not reachable at ${postgres.host}:${postgres.port} (DATABASE_URL): ${reason(pg.reason)}\n${HOW_TO_START.postgres}`,
    );
  }
  if (rd.status === 'rejected') {
    problems.push(
      `Redis is not reachable at ${redis.host}:${redis.port} (REDIS_URL): ${reason(rd.reason)}\n${HOW_TO_START.redis}`,
    );
  }
  return problems;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
