// Password hashing with scrypt, at most a few at a time. scrypt runs on libuv's thread pool (four
// threads by default), which file I/O, DNS lookups and zlib share: hundreds of sign-ins at once
// would hold every thread for seconds and stall every upload and download of the process. Here
// at most SCRYPT_THREADS hash at once; the rest wait their turn on the event loop, which costs
// nothing, and the pool keeps threads free for everything else.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** Threads of libuv's pool scrypt may hold at once (of four): two are always left for I/O. */
const SCRYPT_THREADS = 2;

// scrypt is memory-hard: each guess costs 32 MiB of memory (N * r * 128 bytes), which is what
// makes a stolen table expensive to attack with GPUs.
interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly maxmem: number;
}

const COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_BYTES = 32;

let running = 0;
const waiting: Array<() => void> = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= SCRYPT_THREADS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  }
}

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return turn(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password, salt, KEY_BYTES, cost, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

/** `scrypt$N$r$p$<salt>$<key>`, base64url: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return [
    'scrypt',
    COST.N,
    COST.r,
    COST.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const derived = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}
