import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

const loggerModule = join(import.meta.dirname, '../src/logger.ts');

/** Runs `body` in a child with `logger` created, and collects its stdout lines as they come. */
function child(body: string) {
  const process = spawn(
    globalThis.process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createLogger } from ${JSON.stringify(loggerModule)};
const logger = createLogger('test', { LOG_LEVEL: 'info' });
${body}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  createInterface({ input: process.stdout }).on('line', (line) => lines.push(line));
  return { process, lines };
}

describe('createLogger', () => {
  it('writes a gathered line out within the flush interval while the process runs on', async () => {
    // The child never runs out of work, so the line can only come from the periodic flush.
    const { process, lines } = child(`logger.info('first'); setInterval(() => {}, 1_000);`);
    const exited = once(process, 'exit');
    await expect.poll(() => lines.length > 0 || process.exitCode !== null).toBe(true);
    expect(process.exitCode).toBeNull();
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['first']);
    process.kill();
    await exited;
  });

  it('writes every line of a process that simply runs out of work', async () => {
    const { process, lines } = child(`for (let i = 0; i < 3; i++) logger.info({ i }, 'line');`);
    const [code] = await once(process, 'close');
    expect(code).toBe(0);
    expect(lines.map((line) => JSON.parse(line).i)).toEqual([0, 1, 2]);
  });
});
