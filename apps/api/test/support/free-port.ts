import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 for a process the test starts. Not one the kernel hands out (port 0):
 * those come from the ephemeral range, where any outgoing connection of a parallel test (to
 * PostgreSQL, Redis, a server) may take it between this check and the process's bind. A random
 * port below that range is taken only by a listener, so it stays free unless another test draws
 * the same one.
 */
export async function freePort(): Promise<number> {
  return freePortWith(0);
}

/**
 * A free port whose companion `offset` above it is free too, both below the ephemeral range: a
 * Redis Cluster node listens on its port and on its cluster bus port, 10,000 above.
 */
export async function freePortWith(offset: number): Promise<number> {
  const below = ephemeralRangeStart() - offset;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = randomInt(Math.max(1024, below - 12_000), below);
    if ((await canListen(port)) && (offset === 0 || (await canListen(port + offset)))) return port;
  }
  throw new Error('no free port below the ephemeral range after 50 tries');
}

/** The first port of the kernel's ephemeral range (Linux), else IANA's. */
function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > 2048 ? port : 49_152;
  } catch {
    return 49_152;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
