import { readFileSync } from 'node:fs';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ZodType } from 'zod';
import { registerSecuritySchemes } from './openapi/security.ts';
import { ROUTES, webhookEvent } from './routes.ts';

/** The OpenAPI 3.1 document as plain JSON data. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const DESCRIPTION = `Content provenance: upload an image, have it watermarked (an invisible mark and/or C2PA metadata), poll the job, download the result, and look up its NFT and IPFS records.

Flow: \`POST /claim/file-upload-link\`, PUT the bytes to \`uploadLink\`, \`POST /watermark\`, poll \`GET /watermark/{requestId}\` until \`success\` or \`failed\`, download \`watermarkedUrl\` before \`expiredAt\`.

The upload (PUT \`uploadLink\`) and download (GET \`watermarkedUrl\`) are signed URLs on the storage address and are not described here.

Every error is RFC 9457 \`application/problem+json\` whose \`type\` is one of the stable URIs under \`https://hallmark.dev/problems/\`. That includes what the HTTP layer refuses before any route runs: a malformed URL or header, headers over 16 KiB, a body too large or of another type than JSON, and a method a path does not serve, which answers 404 like an unknown path.

User's guide (concepts, the flow with curl and the SDK, configuration, errors, limits): \`docs/README.md\` in the Hallmark repository.`;

/** Every operation of the API with its zod schemas, as registered for the document. */
function apiRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  for (const route of Object.values(ROUTES)) registry.registerPath(route);
  registry.registerWebhook(webhookEvent);
  return registry;
}

/** One documented answer of one operation, with the zod schema its body must satisfy. */
export interface DocumentedResponse {
  readonly operationId: string;
  readonly method: string;
  /** The OpenAPI path template, e.g. `/watermark/{requestId}`. */
  readonly path: string;
  /** `200`, `4XX` or `default`, as in the document. */
  readonly status: string;
  readonly mediaType: string;
  /** Null for a binary answer (`application/c2pa`): its media type is all there is to check. */
  readonly schema: ZodType | null;
}

/**
 * The answers the document promises, with the very zod schemas it was generated from, so a
 * contract test can check the service's real answers against them.
 */
export function documentedResponses(): DocumentedResponse[] {
  return apiRegistry().definitions.flatMap((definition) => {
    if (definition.type !== 'route') return [];
    const { route } = definition;
    return Object.entries(route.responses).flatMap(([status, response]) =>
      Object.entries(('content' in response ? response.content : undefined) ?? {}).flatMap(
        ([mediaType, media]) => {
          const schema = (media as { schema?: unknown }).schema;
          return [
            {
              operationId: route.operationId ?? `${route.method} ${route.path}`,
              method: route.method.toUpperCase(),
              path: route.path,
              status,
              mediaType,
              schema: schema instanceof ZodType ? schema : null,
            },
          ];
        },
      ),
    );
  });
}

/**
 * Builds the document from the zod schemas. A fresh registry per call keeps it a pure function:
 * the committed openapi.json and the drift test both call it and must get identical output.
 */
export function buildOpenApiDocument(): OpenApiDocument {
  const generator = new OpenApiGeneratorV31(apiRegistry().definitions, {
    sortComponents: 'alphabetically',
  });
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Hallmark API',
      version: packageVersion(),
      description: DESCRIPTION,
    },
    // Relative: the paths are served wherever this document is (GET /openapi.json).
    servers: [{ url: '/', description: 'The service this document is served by.' }],
    tags: [
      { name: 'Auth', description: 'Exchange an API key for an access token.' },
      { name: 'Uploads', description: 'Claim a signed link to upload a file.' },
      { name: 'Watermarking', description: 'Request watermarking and follow the job.' },
      { name: 'Records', description: 'NFT and IPFS records of watermarked files.' },
      {
        name: 'Verification',
        description: 'Check any copy of an image: both marks, the record they lead to, a verdict.',
      },
      {
        name: 'Soft Binding Resolution',
        description:
          'The C2PA Soft Binding Resolution API: from a soft binding or an image to its manifests.',
      },
      {
        name: 'Key requests',
        description: 'Ask for an API key and follow the request; no token needed.',
      },
      {
        name: 'Admin',
        description:
          "The admin console's API: an operator's session cookie, never an API key; changes need the session's CSRF token.",
      },
      { name: 'Health', description: 'Probes for orchestrators; no token needed.' },
    ],
  });
}

/** Read at call time, relative to this file, so it works from src/ (scripts, tests) and dist/. */
function packageVersion(): string {
  const manifest: unknown = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  );
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest) {
    const { version } = manifest;
    if (typeof version === 'string') return version;
  }
  throw new Error('packages/schemas/package.json has no version');
}

/** The document as committed: 2-space JSON with a trailing newline. */
export function serializeOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
