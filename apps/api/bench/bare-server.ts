// The bare baseline of the HTTP benchmark: a Fastify process answering the measured routes with
// the service's JSON, with no auth, database or validation. The ratio to it is the price of all
// the work a request does.
import Fastify from 'fastify';

const [, , portArg, jobJson, linkJson, acceptedJson] = process.argv;
const app = Fastify({ logger: false });
app.get('/watermark/:requestId', async (_request, reply) => {
  await reply.type('application/json').send(jobJson);
});
app.post('/claim/file-upload-link', async (_request, reply) => {
  await reply.status(201).type('application/json').send(linkJson);
});
app.post('/watermark', async (_request, reply) => {
  await reply.status(202).type('application/json').send(acceptedJson);
});
await app.listen({ port: Number(portArg), host: '127.0.0.1' });
process.stdout.write('ready\n');
