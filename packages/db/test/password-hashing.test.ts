import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/index.ts';

describe('password hashing', () => {
  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it("leaves libuv's threads to file I/O while many passwords are checked at once", async () => {
    const stored = await hashPassword('correct horse battery');
    let checked = 0;
    const burst = Array.from({ length: 24 }, () =>
      verifyPassword('wrong', stored).then(() => {
        checked++;
      }),
    );
    // Queued after the whole burst: without a bound on scrypt it waits for nearly all of it.
    await readFile(new URL(import.meta.url));
    const checkedWhenRead = checked;
    await Promise.all(burst);
    expect(checked).toBe(24);
    expect(checkedWhenRead).toBeLessThanOrEqual(4);
  });
});
