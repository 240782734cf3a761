import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
}

/**
 * A collector's `/v1/traces` for the tests: the real OTLP/HTTP exporter of each process sends
 * its spans here, as JSON, and the test reads them back.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const json = request.headers['content-type']?.startsWith('application/json') === true;
        if (request.method !== 'POST' || request.url !== '/v1/traces' || !json) {
          response.writeHead(415).end();
          return;
        }
        this.#receive(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #receive(body: OtlpExport): void {
    for (const resource of body.resourceSpans ?? []) {
      const service = attributesOf(resource.resource?.attributes)['service.name'];
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service: String(service),
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
          });
        }
      }
    }
  }
}

function attributesOf(
  list: OtlpAttribute[] | undefined,
): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    attributes[key] =
      value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue ?? 0);
  }
  return attributes;
}
