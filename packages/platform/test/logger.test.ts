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
    const { process, lines } = child(`logger.info('first'); setTimeout(() => {}, 5_000);`);
    // Far under the 5 s the process stays up, far over the 100 ms flush interval.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['first']);
    process.kill();
    await once(process, 'exit');
  });

  it('writes every line of a process that simply runs out of work', async () => {
    const { process, lines } = child(`for (let i = 0; i < 3; i++) logger.info({ i }, 'line');`);
    const [code] = await once(process, 'close');
    expect(code).toBe(0);
    expect(lines.map((line) => JSON.parse(line).i)).toEqual([0, 1, 2]);
  });
});
