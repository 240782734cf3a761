import 'reflect-metadata';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { NestPinoLogger, SERVICE_KEYS, type ServiceKeys } from '@hallmark/runtime';
import { processMetrics } from '@hallmark/runtime/metrics';
import { tracingOn } from '@hallmark/runtime/tracing';
import { trustProxySetting } from '@hallmark/service-keys';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLog } from './access-log.ts';
import { separateAdminListener } from './admin-listener.ts';
import { sendAnswersPerTurn } from './answers-per-turn.ts';
import { AppModule } from './app.module.ts';
import { storeNothingByDefault } from './cache-policy.ts';
import { believeConsoleForwarding } from './client-address.ts';
import { registerDocsPage } from './docs/register-docs-page.ts';
import { measureRequests } from './metrics/http-metrics.ts';
import { clientErrorHandler, MAX_HEADER_BYTES } from './problem/client-error.ts';
import { sendProblem } from './problem/send-problem.ts';
import { drainUnreadBodies } from './problem/unread-bodies.ts';
import { settleRateLimits } from './rate-limit/rate-limit-settlement.ts';
import { traceRequests } from './tracing/http-spans.ts';
import { passUploadBodies } from './uploads/upload-body-parser.ts';

/** Builds the API application (not yet listening): used by main.ts and by the tests. */
export async function createApp(
  config: HallmarkConfig,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const httpLogger = logger.child({ component: 'http' });
  const adapter = new FastifyAdapter({
    loggerInstance: httpLogger,
    logController: new AccessLog(),
    // Slow clients cannot hold connections open: headers must arrive within
    // HTTP_HEADERS_TIMEOUT_MS and the whole request (a 50 MB upload included) within
    // HTTP_REQUEST_TIMEOUT_MS; both answer 408. Idle kept-alive connections close after
    // HTTP_KEEP_ALIVE_TIMEOUT_MS, longer than the usual load balancer's 60 s idle timeout.
    http: {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      // How often Node looks for connections past those limits: at most a second late.
      connectionsCheckingInterval: 1_000,
    },
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    // Requests Node's parser rejects before Fastify sees them still get problem+json.
    clientErrorHandler: clientErrorHandler(httpLogger),
    // A malformed URL is refused by the router, before Nest's exception layer applies (Nest's own
    // hook would hand it to Fastify's default JSON error, which quotes the URL and its query).
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      sendProblem(error, request, reply, httpLogger),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    adapter,
    // Fastify's own JSON parser is kept (its errors carry stable codes); Nest's form parser is not
    // wanted: no route takes form data.
    { logger: new NestPinoLogger(logger), abortOnError: false, bodyParser: false },
  );
  const fastify = app.getHttpAdapter().getInstance();
  // JSON is the only body type of the JSON routes: Fastify's default text/plain parser goes, so
  // such bodies reach passUploadBodies and get a 415 there.
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('*', passUploadBodies);
  separateAdminListener(fastify, config, httpLogger);
  storeNothingByDefault(fastify);
  believeConsoleForwarding(
    fastify,
    app.get<ServiceKeys>(SERVICE_KEYS).consoleForwarding,
    httpLogger,
  );
  if (tracingOn()) traceRequests(fastify);
  if (config.METRICS_PORT !== undefined) {
    // Each process keeps its own figures (its supervisor sums them); nothing is timed when off.
    processMetrics();
    measureRequests(fastify);
  }
  settleRateLimits(fastify, httpLogger);
  drainUnreadBodies(fastify);
  // After the settlement: an answer whose count waited for Redis joins the turn that heard it.
  sendAnswersPerTurn(fastify);
  await registerDocsPage(app);
  return app;
}
