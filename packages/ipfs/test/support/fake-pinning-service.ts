import { serve } from './http-server.ts';

type Status = 'queued' | 'pinning' | 'pinned' | 'failed';

interface PinRequest {
  readonly requestid: string;
  readonly cid: string;
  readonly name: string | undefined;
  status: Status;
}

export interface FakePinningService {
  readonly endpoint: string;
  readonly token: string;
  readonly requests: PinRequest[];
  /** CIDs the service will fail to pin. */
  readonly unpinnable: Set<string>;
  close(): Promise<void>;
}

/**
 * The IPFS Pinning Service API routes the client uses (`POST /pins`, `GET /pins`,
 * `GET /pins/{requestid}`, `DELETE /pins/{requestid}`), with bearer-token checks and the spec's error body. A request moves
 * one step (queued → pinning → pinned, or → failed) each time its status is read, so polling is
 * exercised without waiting on real time.
 */
export async function startFakePinningService(): Promise<FakePinningService> {
  const token = 'test-token';
  const requests: PinRequest[] = [];
  const unpinnable = new Set<string>();
  let nextId = 1;

  const advance = (pin: PinRequest): void => {
    if (pin.status === 'queued') pin.status = 'pinning';
    else if (pin.status === 'pinning') pin.status = unpinnable.has(pin.cid) ? 'failed' : 'pinned';
  };
  const statusOf = (pin: PinRequest) => ({
    requestid: pin.requestid,
    status: pin.status,
    created: '2026-01-01T00:00:00Z',
    pin: { cid: pin.cid, ...(pin.name === undefined ? {} : { name: pin.name }) },
    delegates: ['/dnsaddr/pin.example'],
  });

  const server = await serve(async (request) => {
    if (request.headers.get('authorization') !== `Bearer ${token}`) {
      return error(401, 'UNAUTHORIZED', 'Access token is missing or invalid');
    }
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/pins') {
      const body: unknown = await request.json();
      const fields: Record<string, unknown> =
        typeof body === 'object' && body !== null ? { ...body } : {};
      const { cid, name } = fields;
      if (typeof cid !== 'string') return error(400, 'BAD_REQUEST', 'cid is required');
      const pin: PinRequest = {
        requestid: `r${nextId++}`,
        cid,
        name: typeof name === 'string' ? name : undefined,
        status: 'queued',
      };
      requests.push(pin);
      return Response.json(statusOf(pin), { status: 202 });
    }
    if (request.method === 'GET' && url.pathname === '/pins') {
      const cids = url.searchParams.get('cid')?.split(',') ?? [];
      const statuses = url.searchParams.get('status')?.split(',') ?? ['pinned'];
      const limit = Number(url.searchParams.get('limit') ?? '10');
      const results = requests
        .filter((pin) => cids.length === 0 || cids.includes(pin.cid))
        .filter((pin) => statuses.includes(pin.status))
        .reverse()
        .slice(0, limit)
        .map(statusOf);
      return Response.json({ count: results.length, results });
    }
    const match = /^\/pins\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'DELETE' && match) {
      const index = requests.findIndex((candidate) => candidate.requestid === match[1]);
      if (index === -1) return error(404, 'NOT_FOUND', 'no such pin request');
      requests.splice(index, 1);
      return new Response(null, { status: 202 });
    }
    if (request.method === 'GET' && match) {
      const pin = requests.find((candidate) => candidate.requestid === match[1]);
      if (pin === undefined) return error(404, 'NOT_FOUND', 'no such pin request');
      advance(pin);
      return Response.json(statusOf(pin));
    }
    return error(404, 'NOT_FOUND', 'no such route');
  });

  return { endpoint: server.url, token, requests, unpinnable, close: server.close };
}

function error(status: number, reason: string, details: string): Response {
  return Response.json({ error: { reason, details } }, { status });
}
