import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { problemTypes, type WatermarkJob, type WatermarkJobError } from '../src/index.ts';

/** A request as the fake saw it; bodies are kept as bytes because uploads are binary. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface Reply {
  readonly status: number;
  readonly contentType?: string;
  readonly body?: string | Buffer;
}

interface StoredFile {
  readonly contentType: string;
  bytes?: Buffer;
}

interface StoredJob {
  readonly requestId: string;
  readonly fileId: string;
  polls: number;
}

/** Prefix the fake puts before the uploaded bytes, standing in for the watermark. */
export const WATERMARK_PREFIX = 'marked:';

/**
 * Imitates the Hallmark API and its storage on one ephemeral port, as far as the SDK can
 * observe them: signed upload and download links, single-use uploads with a checked
 * `Content-Type`, idempotent `POST /watermark`, and jobs that go pending → processing → final
 * over successive polls. Behaviour is set through the public fields before a test runs.
 */
export class FakeHallmarkApi {
  readonly requests: SeenRequest[] = [];
  /** Polls answered `pending`, then `processing`, before the job is final. */
  pendingPolls = 1;
  processingPolls = 1;
  /** When set, jobs end `failed` with this error instead of `success`. */
  failWith: WatermarkJobError | undefined;
  /** When true, jobs never finish. */
  stuck = false;

  readonly #files = new Map<string, StoredFile>();
  readonly #jobs = new Map<string, StoredJob>();
  readonly #idempotencyKeys = new Map<string, string>();
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const url = new URL(request.url ?? '/', this.url);
        this.requests.push({
          method: request.method ?? '',
          path: url.pathname,
          headers: request.headers,
          body,
        });
        const reply = this.#route(request, url, body);
        response.writeHead(
          reply.status,
          reply.contentType ? { 'content-type': reply.contentType } : {},
        );
        response.end(reply.body);
      });
    });
  }

  static async start(): Promise<FakeHallmarkApi> {
    const api = new FakeHallmarkApi();
    await new Promise<void>((resolve) => api.#server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** What each request was, e.g. `POST /watermark`, with ids replaced by `:id`. */
  get trail(): string[] {
    return this.requests.map(
      ({ method, path }) => `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}`,
    );
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.#server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  #route(request: IncomingMessage, url: URL, body: Buffer): Reply {
    const route = `${request.method} ${url.pathname}`;
    // Every id-carrying path ends with the id; links are signed with `sig-<id>`.
    const id = url.pathname.split('/').pop() ?? '';
    const signed = url.searchParams.get('signature') === `sig-${id}`;
    if (route.startsWith('PUT /storage/uploads/')) {
      return this.#upload(id, signed, request.headers['content-type'], body);
    }
    if (route.startsWith('GET /storage/watermarked/')) return this.#download(id, signed);
    if (request.headers.authorization !== 'Bearer secret-token') {
      return problem(problemTypes.unauthorized);
    }
    if (route === 'POST /claim/file-upload-link') return this.#createUploadLink(body);
    if (route === 'POST /watermark') return this.#createJob(request, body);
    if (route.startsWith('GET /watermark/')) return this.#poll(id);
    return problem(problemTypes.notFound);
  }

  #createUploadLink(body: Buffer): Reply {
    const { contentType } = JSON.parse(body.toString('utf8')) as { contentType: string };
    const fileId = randomUUID();
    this.#files.set(fileId, { contentType });
    return json(201, {
      fileId,
      uploadLink: `${this.url}/storage/uploads/${fileId}?signature=sig-${fileId}`,
    });
  }

  #upload(fileId: string, signed: boolean, contentType: string | undefined, body: Buffer): Reply {
    const file = this.#files.get(fileId);
    if (!signed || !file) return problem(problemTypes.invalidSignature);
    if (file.bytes) return problem(problemTypes.uploadAlreadyUsed);
    if (contentType !== file.contentType) return problem(problemTypes.validationError);
    file.bytes = body;
    return { status: 204 };
  }

  #createJob(request: IncomingMessage, body: Buffer): Reply {
    const { fileId } = JSON.parse(body.toString('utf8')) as { fileId: string };
    if (!this.#files.get(fileId)?.bytes) return problem(problemTypes.fileNotUploaded);
    const key = request.headers['idempotency-key'];
    const known = typeof key === 'string' ? this.#idempotencyKeys.get(key) : undefined;
    const requestId = known ?? randomUUID();
    if (!known) {
      this.#jobs.set(requestId, { requestId, fileId, polls: 0 });
      if (typeof key === 'string') this.#idempotencyKeys.set(key, requestId);
    }
    return json(202, { status: 'pending', requestId, fileId });
  }

  #poll(requestId: string): Reply {
    const job = this.#jobs.get(requestId);
    if (!job) return problem(problemTypes.notFound);
    job.polls += 1;
    const base = { requestId, fileId: job.fileId };
    if (this.stuck || job.polls <= this.pendingPolls) {
      return json(200, { ...base, status: 'pending' } satisfies WatermarkJob);
    }
    if (job.polls <= this.pendingPolls + this.processingPolls) {
      return json(200, { ...base, status: 'processing' } satisfies WatermarkJob);
    }
    if (this.failWith) {
      return json(200, {
        ...base,
        status: 'failed',
        error: this.failWith,
      } satisfies WatermarkJob);
    }
    return json(200, {
      ...base,
      status: 'success',
      watermarkedUrl: `${this.url}/storage/watermarked/${requestId}?signature=sig-${requestId}`,
      expiredAt: Math.floor(Date.now() / 1000) + 3600,
    } satisfies WatermarkJob);
  }

  #download(requestId: string, signed: boolean): Reply {
    const job = this.#jobs.get(requestId);
    const file = job && this.#files.get(job.fileId);
    if (!signed || !file?.bytes) return problem(problemTypes.invalidSignature);
    return {
      status: 200,
      contentType: file.contentType,
      body: Buffer.concat([Buffer.from(WATERMARK_PREFIX), file.bytes]),
    };
  }
}

function json(status: number, body: unknown): Reply {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

function problem(type: {
  readonly type: string;
  readonly title: string;
  readonly status: number;
}): Reply {
  return {
    status: type.status,
    contentType: 'application/problem+json',
    body: JSON.stringify(type),
  };
}
