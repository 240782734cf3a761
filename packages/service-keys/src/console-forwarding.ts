// The console is the API's client on behalf of browsers: every browser reaches the API from the
// console's address. So that per-address limits and the audit log see the browser, the console
// sends the browser's address with a proof only a holder of the service secret can make; the API
// believes the address only with a valid proof, whatever its TRUST_PROXY says (which names
// reverse proxies, and would let anyone sharing the console's address pick an address).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The browser's address, as the console saw it. */
export const CONSOLE_CLIENT_HEADER = 'x-hallmark-console-client';
/** `<unix seconds>.<HMAC-SHA256 of the address and time, base64url>`. */
export const CONSOLE_PROOF_HEADER = 'x-hallmark-console-proof';

/** A proof older (or further ahead) than this is refused: a captured one is soon worthless. */
const PROOF_LIFETIME_SECONDS = 300;

function mac(key: Uint8Array, address: string, seconds: number): Buffer {
  return createHmac('sha256', key).update(`${address}\n${seconds}`).digest();
}

/** The headers the console adds to a request it makes for a browser at `address`. */
export function consoleForwardingHeaders(
  key: Uint8Array,
  address: string,
  now: Date = new Date(),
): Record<string, string> {
  const seconds = Math.floor(now.getTime() / 1000);
  return {
    [CONSOLE_CLIENT_HEADER]: address,
    [CONSOLE_PROOF_HEADER]: `${seconds}.${mac(key, address, seconds).toString('base64url')}`,
  };
}

/**
 * The browser's address when the headers carry a valid, fresh proof for it; null otherwise (no
 * headers, an altered address, a proof made with another secret or out of date).
 */
export function forwardedConsoleClient(
  key: Uint8Array,
  address: string | undefined,
  proof: string | undefined,
  now: Date = new Date(),
): string | null {
  if (address === undefined || proof === undefined || isIP(address) === 0) return null;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(proof);
  if (match === null) return null;
  const seconds = Number(match[1]);
  if (Math.abs(now.getTime() / 1000 - seconds) > PROOF_LIFETIME_SECONDS) return null;
  const expected = mac(key, address, seconds);
  const given = Buffer.from(match[2] as string, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : null;
}
