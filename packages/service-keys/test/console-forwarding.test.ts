import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CONSOLE_CLIENT_HEADER,
  CONSOLE_PROOF_HEADER,
  consoleForwardingHeaders,
  forwardedConsoleClient,
} from '../src/index.ts';

describe('console forwarding', () => {
  const key = randomBytes(32);
  const at = new Date('2026-11-28T12:00:00Z');
  const check = (headers: Record<string, string>, now = at, withKey: Uint8Array = key) =>
    forwardedConsoleClient(
      withKey,
      headers[CONSOLE_CLIENT_HEADER],
      headers[CONSOLE_PROOF_HEADER],
      now,
    );

  it('believes the address the console proved, IPv4 or IPv6', () => {
    expect(check(consoleForwardingHeaders(key, '203.0.113.7', at))).toBe('203.0.113.7');
    expect(check(consoleForwardingHeaders(key, '2001:db8::1', at))).toBe('2001:db8::1');
  });

  it('refuses an altered address, another secret, a stale or future proof, and garbage', () => {
    const headers = consoleForwardingHeaders(key, '203.0.113.7', at);
    expect(check({ ...headers, [CONSOLE_CLIENT_HEADER]: '203.0.113.8' })).toBeNull();
    expect(check(headers, at, randomBytes(32))).toBeNull();
    expect(check(headers, new Date(at.getTime() + 301_000))).toBeNull();
    expect(check(headers, new Date(at.getTime() - 301_000))).toBeNull();
    expect(check(headers, new Date(at.getTime() + 299_000))).toBe('203.0.113.7');
    expect(check({ [CONSOLE_CLIENT_HEADER]: '203.0.113.7' })).toBeNull();
    expect(check({ ...headers, [CONSOLE_PROOF_HEADER]: 'x.y' })).toBeNull();
    const forged = consoleForwardingHeaders(key, 'not-an-address', at);
    expect(check(forged)).toBeNull();
  });
});
