import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { openApiDocument } from './openapi-document.ts';

/** Serves an interactive docs page at /docs; its assets come from npm, so it works offline. */
export async function registerDocsPage(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: openApiDocument as never },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // The browser tab names the API, not the viewer (Swagger UI's default title).
    theme: { title: 'Hallmark API' },
  });
}
