import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess } from '../src/testing/service-process.ts';

describe('startServiceProcess', () => {
  let dir: string;
  let entry: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hallmark-service-process-'));
    entry = join(dir, 'chatty.mjs');
    // Logs "ready", then far more than a pipe holds (64 KiB), then "done", and exits: a process
    // whose log is not drained stays stuck in its writes.
    await writeFile(
      entry,
      `const say = (msg) => new Promise((resolve) => process.stdout.write(JSON.stringify({ msg }) + '\\n', resolve));
await say('ready');
await new Promise((resolve) => setTimeout(resolve, 200));
for (let i = 0; i < 20000; i++) await say('request');
await say('done');
`,
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('follows the log lines by msg', async () => {
    const service = startServiceProcess(entry, {});
    expect(await service.logged('done')).toEqual({ msg: 'done' });
    // The script ends by itself after "done": wait for that exit (a stop() here could race it
    // and kill the process first, giving no exit code).
    const code = service.child.exitCode ?? (await once(service.child, 'exit'))[0];
    expect(code).toBe(0);
    expect(service.messages).toHaveLength(20_002);
  });

  it('after unfollow drains the log unread, so the process neither stalls nor is followed', async () => {
    const service = startServiceProcess(entry, {});
    await service.logged('ready');
    service.unfollow();
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    expect(service.messages.length).toBeLessThan(20_002);
    expect(service.messages).not.toContain('done');
  });
});
