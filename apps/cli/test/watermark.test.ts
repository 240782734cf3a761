import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';
import { capture as captureIo } from './support/capture.ts';

interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface Reply {
  readonly status: number;
  readonly body?: unknown;
}

/**
 * Imitates the API as the SDK sees it, on one port: an upload link and a download link on
 * `/storage`, `POST /watermark`, and a job that answers `processing` once, then its outcome.
 * The watermarked file is the uploaded bytes behind the prefix `marked:`.
 */
class FakeApi {
  readonly requests: SeenRequest[] = [];
  jobError: { code: string; message: string } | undefined;
  readonly #uploads = new Map<string, Buffer>();
  readonly #polls = new Map<string, number>();
  readonly #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', this.url);
      const seen = {
        method: request.method ?? '',
        path: url.pathname,
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      this.requests.push(seen);
      const reply = this.#answer(seen);
      if (Buffer.isBuffer(reply.body)) {
        response.writeHead(reply.status, { 'content-type': 'image/png' }).end(reply.body);
      } else {
        const type = reply.status >= 400 ? 'application/problem+json' : 'application/json';
        response
          .writeHead(reply.status, { 'content-type': type })
          .end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      }
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The JSON body of the first request to `path`. */
  bodyOf(method: string, path: string): unknown {
    const request = this.requests.find((r) => r.method === method && r.path === path);
    return request ? JSON.parse(request.body.toString('utf8')) : undefined;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #answer({ method, path, headers, body }: SeenRequest): Reply {
    const id = path.split('/').pop() ?? '';
    if (method === 'PUT' && path.startsWith('/storage/uploads/')) {
      this.#uploads.set(id, body);
      return { status: 200, body: { fileId: id } };
    }
    if (method === 'GET' && path.startsWith('/storage/watermarked/')) {
      return { status: 200, body: Buffer.concat([Buffer.from('marked:'), this.#lastUpload()]) };
    }
    if (headers.authorization !== 'Bearer test-key') {
      return {
        status: 401,
        body: { type: 'about:blank', title: 'Missing or invalid bearer token' },
      };
    }
    if (method === 'POST' && path === '/claim/file-upload-link') {
      const fileId = randomUUID();
      return {
        status: 201,
        body: { fileId, uploadLink: `${this.url}/storage/uploads/${fileId}?signature=s` },
      };
    }
    if (method === 'POST' && path === '/watermark') {
      const { fileId } = JSON.parse(body.toString('utf8')) as { fileId: string };
      return { status: 202, body: { status: 'pending', requestId: randomUUID(), fileId } };
    }
    if (method === 'GET' && path.startsWith('/watermark/')) return this.#poll(id);
    return { status: 404, body: { type: 'about:blank', title: 'Resource not found' } };
  }

  #poll(requestId: string): Reply {
    const polls = (this.#polls.get(requestId) ?? 0) + 1;
    this.#polls.set(requestId, polls);
    const job = { requestId, fileId: randomUUID() };
    if (polls === 1) return { status: 200, body: { ...job, status: 'processing' } };
    if (this.jobError)
      return { status: 200, body: { ...job, status: 'failed', error: this.jobError } };
    return {
      status: 200,
      body: {
        ...job,
        status: 'success',
        watermarkedUrl: `${this.url}/storage/watermarked/${requestId}?signature=s`,
        expiredAt: 1767225600,
      },
    };
  }

  #lastUpload(): Buffer {
    return [...this.#uploads.values()].pop() ?? Buffer.alloc(0);
  }
}

const pixels = Buffer.from([0x89, 0x50, 0x4e, 0x47, 7, 7, 7]);
let api: FakeApi;
let folder: string;
let input: string;

beforeAll(async () => {
  api = new FakeApi();
  await api.start();
  folder = await mkdtemp(join(tmpdir(), 'hallmark-cli-'));
});
afterAll(async () => {
  await api.stop();
  await rm(folder, { recursive: true, force: true });
});
beforeEach(async () => {
  api.requests.length = 0;
  api.jobError = undefined;
  input = join(folder, `sunset-${randomUUID()}.png`);
  await writeFile(input, pixels);
});

function capture(env: Record<string, string> = {}, stderrIsTty = false) {
  return captureIo({ HALLMARK_URL: api.url, HALLMARK_API_KEY: 'test-key', ...env }, stderrIsTty);
}

describe('hallmark watermark', () => {
  it('watermarks a file beside the input and prints the output path', async () => {
    const c = capture();

    expect(await runCli(['watermark', input], c.io)).toBe(0);

    const output = input.replace(/\.png$/, '.watermarked.png');
    expect(c.out()).toBe(`${output}\n`);
    expect(await readFile(output)).toEqual(Buffer.concat([Buffer.from('marked:'), pixels]));
    // Neither technique named: both are requested, as the API recommends (docs/flow.md).
    expect(api.bodyOf('POST', '/watermark')).toMatchObject({
      options: { watermarkType: ['invisible', 'c2pa'] },
    });
    const upload = api.requests.find((request) => request.method === 'PUT');
    expect(upload?.headers['content-type']).toBe('image/png');
    // Plain progress lines, one per step, the job status once.
    expect(c.err().split('\n')).toEqual([
      expect.stringMatching(/^uploading sunset-.*\.png \(7 B\)$/),
      expect.stringMatching(/^uploaded as file /),
      expect.stringMatching(/^queued as request /),
      'processing',
      'watermarked',
      `downloading to ${output}`,
      '',
    ]);
  });

  it('sends the metadata and options given as flags, and prints the job with --json', async () => {
    const c = capture();
    const output = join(folder, 'custom-name.png');

    const code = await runCli(
      [
        'watermark',
        input,
        '--c2pa',
        '--author',
        'Ada Lovelace',
        '--copyright',
        '© 2025 Ada',
        '--description',
        'Harbour',
        '--license',
        'CC-BY-4.0',
        '--created',
        '2025-01-15',
        '--ipfs',
        '--nft',
        '--out',
        output,
        '--json',
      ],
      c.io,
    );

    expect(code).toBe(0);
    expect(api.bodyOf('POST', '/watermark')).toMatchObject({
      options: {
        watermarkType: ['c2pa'],
        data: {
          author: 'Ada Lovelace',
          copyright: '© 2025 Ada',
          description: 'Harbour',
          licenseType: 'CC-BY-4.0',
          creationDate: '2025-01-15',
        },
        storeIpfs: true,
        mintNft: true,
      },
    });
    expect(JSON.parse(c.out())).toMatchObject({ status: 'success' });
    expect(await readFile(output)).toEqual(Buffer.concat([Buffer.from('marked:'), pixels]));
  });

  it('redraws one progress line when stderr is a terminal', async () => {
    const c = capture({}, true);
    expect(await runCli(['watermark', input, '--invisible'], c.io)).toBe(0);
    expect(api.bodyOf('POST', '/watermark')).toMatchObject({
      options: { watermarkType: ['invisible'] },
    });
    // Carriage return and "erase line" before each state.
    const redraw = '\r\x1b[2K';
    expect(c.err().startsWith(`${redraw}uploading `)).toBe(true);
    expect(c.err()).toContain(`${redraw}processing `);
    // A single line, ended once at the end.
    expect(c.err().split('\n')).toHaveLength(2);
    expect(c.err().endsWith('\n')).toBe(true);
  });

  it('uses --url over HALLMARK_URL', async () => {
    const c = capture({ HALLMARK_URL: 'http://127.0.0.1:1' });
    expect(await runCli(['watermark', input, '--url', api.url], c.io)).toBe(0);
  });

  it('reports a failed job as code: message with exit code 1', async () => {
    api.jobError = { code: 'image_too_small', message: 'The image is smaller than 256 px.' };
    const c = capture();

    expect(await runCli(['watermark', input], c.io)).toBe(1);

    expect(c.err()).toContain('image_too_small: The image is smaller than 256 px.\n');
    expect(c.out()).toBe('');
  });

  it('reports a refused request (bad key) with exit code 1', async () => {
    const c = capture({ HALLMARK_API_KEY: 'wrong' });
    expect(await runCli(['watermark', input], c.io)).toBe(1);
    expect(c.err()).toContain('401 Missing or invalid bearer token');
  });

  it.each([
    ['no file', [], {}, 'expected a file to watermark'],
    ['two files and one --out', ['a.png', 'b.png', '--out', 'c.png'], {}, '--out names one output'],
    ['no API key', ['INPUT'], { HALLMARK_API_KEY: '' }, 'HALLMARK_API_KEY is not set'],
    ['a date that does not exist', ['INPUT', '--created', '2025-02-30'], {}, '--created'],
    ['an unknown option', ['INPUT', '--colour'], {}, "Unknown option '--colour'"],
  ])('exits 2 with usage on %s', async (_case, args, env, message) => {
    const c = capture(env);
    const argv = args.map((arg) => (arg === 'INPUT' ? input : arg));

    expect(await runCli(['watermark', ...argv], c.io)).toBe(2);

    expect(c.err()).toContain(message);
    expect(c.err()).toContain('usage: hallmark watermark <files...>');
    expect(api.requests).toEqual([]);
  });

  it('exits 2 when the type cannot be told from the file name', async () => {
    const notes = join(folder, 'notes.txt');
    await writeFile(notes, 'hello');
    const c = capture();
    expect(await runCli(['watermark', notes], c.io)).toBe(2);
    expect(c.err()).toContain('cannot tell the type of');
    expect(c.err()).toContain('.mp4');
    expect(api.requests).toEqual([]);
  });
});
