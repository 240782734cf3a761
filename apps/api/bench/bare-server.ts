// The baseline of the HTTP benchmark: a bare Fastify process answering the same JSON as the two
// measured routes, with no auth, database or validation. The ratio to it is the price of the
// service's own work per request.
import Fastify from 'fastify';

const [, , portArg, jobJson, linkJson] = process.argv;
const app = Fastify({ logger: false });
app.get('/watermark/:requestId', async (_request, reply) => {
  await reply.type('application/json').send(jobJson);
});
app.post('/claim/file-upload-link', async (_request, reply) => {
  await reply.status(201).type('application/json').send(linkJson);
});
await app.listen({ port: Number(portArg), host: '127.0.0.1' });
process.stdout.write('ready\n');
