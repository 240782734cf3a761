import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBaseUrl, loadCliEnvironment } from '../src/environment.ts';

const bundle = join(import.meta.dirname, '../dist/hallmark.js');

describe('the CLI environment', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hallmark-cli-env-'));
    await mkdir(join(folder, 'project/sub'), { recursive: true });
    await writeFile(join(folder, 'project/.env'), 'PORT=4123\nHALLMARK_API_KEY="from-file"\n');
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads the nearest .env upwards, and an exported variable wins over it', () => {
    const { env, envFile } = loadCliEnvironment(join(folder, 'project/sub'), {
      HALLMARK_API_KEY: 'exported',
    });
    expect(envFile).toBe(join(folder, 'project/.env'));
    expect(env.PORT).toBe('4123');
    expect(env.HALLMARK_API_KEY).toBe('exported');
  });

  it('finds no file outside a project', () => {
    expect(loadCliEnvironment(folder, { A: '1' })).toEqual({ env: { A: '1' } });
  });

  it('calls the API where the service started with the same variables listens', () => {
    expect(apiBaseUrl({})).toBe('http://127.0.0.1:3000');
    expect(apiBaseUrl({ PORT: '4123' })).toBe('http://127.0.0.1:4123');
    expect(apiBaseUrl({ HOST: '0.0.0.0', PORT: '4123' })).toBe('http://127.0.0.1:4123');
    expect(apiBaseUrl({ PUBLIC_URL: 'https://hallmark.example/' })).toBe(
      'https://hallmark.example',
    );
    expect(apiBaseUrl({ HALLMARK_URL: 'http://elsewhere:9', PORT: '4123' })).toBe(
      'http://elsewhere:9',
    );
    expect(() => apiBaseUrl({ PORT: 'abc' })).toThrow(/^PORT: /);
  });
});

describe('the installed command', () => {
  let server: Server;
  let folder: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ status: 'ready', checks: { postgres: { status: 'up' } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    folder = await mkdtemp(join(tmpdir(), 'hallmark-cli-dotenv-'));
    await writeFile(join(folder, '.env'), `PORT=${port}\n`);
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(folder, { recursive: true, force: true });
  });

  it('`hallmark ready` asks the server on the PORT of the .env in its folder', async () => {
    const env = { ...process.env };
    delete env.HALLMARK_URL;
    delete env.PORT;
    delete env.PUBLIC_URL;
    delete env.HOST;
    const child = spawn(process.execPath, [bundle, 'ready'], { cwd: folder, env });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'ready\n  postgres    up\n' });
    expect(seen).toEqual(['/ready']);
  });
});
