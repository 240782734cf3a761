// The "floor" of the HTTP benchmark: bare Fastify doing, naively and in sequence, the work each
// measured route cannot avoid: the same hashed-key lookup, the same Redis rate-limit call and the
// same SQL as the service (the @hallmark/db statements themselves), with no framework, validation,
// logging or caching around it. A service that beats this route does its necessary work better
// than the obvious way; one below it spends time on something else.
import { randomUUID } from 'node:crypto';
import { createLogger, loadConfig } from '@hallmark/config';
import {
  createDatabase,
  findJobView,
  findKeyByHash,
  hashApiKey,
  insertFile,
  insertJob,
  type Sql,
} from '@hallmark/db';
import { JobQueues } from '@hallmark/runtime';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { CONSUME_SCRIPT } from '../src/rate-limit/consume-script.ts';

const config = loadConfig(process.env);
const database = createDatabase(config.DATABASE_URL, () => {});
// Naive: the service's statements, each parsed and planned on every request (unnamed), as the
// obvious code runs them; the service prepares them once per connection.
const sql = {
  query: (query: { text: string; values?: unknown[] }) =>
    database.sql.query(query.text, query.values),
} as unknown as Sql;
const redis = new Redis(config.REDIS_URL, { keyPrefix: `${config.REDIS_PREFIX}:` });
const queues = new JobQueues(config, createLogger('floor', config));

/** The key check and the rate-limit count; null (after a 401) when the key is unknown. */
async function keyOf(request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  const bearer = request.headers.authorization?.slice('Bearer '.length) ?? '';
  const key = await findKeyByHash(sql, hashApiKey(bearer));
  if (key === null || key.revokedAt !== null) {
    await reply.status(401).send();
    return null;
  }
  await redis.eval(CONSUME_SCRIPT, 1, `ratelimit:${key.id}`, '60000', '1');
  return key.id;
}

const app = Fastify({ logger: false });
app.get<{ Params: { requestId: string } }>('/watermark/:requestId', async (request, reply) => {
  const apiKeyId = await keyOf(request, reply);
  if (apiKeyId === null) return;
  const row = await findJobView(sql, request.params.requestId, apiKeyId);
  await reply.type('application/json').send(JSON.stringify(row));
});
app.post<{ Body: { fileName: string; contentType: string } }>(
  '/claim/file-upload-link',
  async (request, reply) => {
    const apiKeyId = await keyOf(request, reply);
    if (apiKeyId === null) return;
    const fileId = randomUUID();
    const storageKey = `uploads/${fileId}/${request.body.fileName}`;
    await insertFile(sql, {
      id: fileId,
      apiKeyId,
      fileName: request.body.fileName,
      contentType: request.body.contentType,
      storageKey,
    });
    await reply.status(201).send({ fileId, uploadLink: `http://floor/${storageKey}` });
  },
);
app.post<{ Body: { fileId: string; options: Record<string, unknown> } }>(
  '/watermark',
  async (request, reply) => {
    const apiKeyId = await keyOf(request, reply);
    if (apiKeyId === null) return;
    const job = {
      id: randomUUID(),
      apiKeyId,
      fileId: request.body.fileId,
      options: request.body.options,
      idempotencyKey: null,
      requestHash: null,
    };
    if (!(await insertJob(sql, job))) {
      await reply.status(409).send();
      return;
    }
    await queues.enqueue('watermark', job.id);
    await reply.status(202).send({ status: 'pending', requestId: job.id, fileId: job.fileId });
  },
);
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.stdout.write('ready\n');
