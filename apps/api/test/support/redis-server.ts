import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Debian's redis-server on a local port, keeping nothing on disk but what `extra` asks for
 * (a cluster's node file, a replica's link); files go to `folder`.
 */
export function startRedisServer(port: number, folder: string, ...extra: string[]): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      folder,
      '--dbfilename',
      `dump-${port}.rdb`,
      ...extra,
    ],
    { stdio: 'ignore' },
  );
}
