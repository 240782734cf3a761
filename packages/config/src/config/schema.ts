import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { secretWeakness } from './secret-strength.ts';

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65_535, 'must be between 1 and 65535');

const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();
const nonNegativeInt = z.coerce.number({ error: 'must be a number' }).int().nonnegative();

function url(protocols: readonly string[]) {
  return z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}` },
  );
}

const flag = z.stringbool({ error: 'must be true or false' });

/** `host:port,host:port`: the Sentinels of a Redis primary, in order of preference. */
const hostPorts = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'each must be host:port')
          .transform((entry) => {
            const at = entry.lastIndexOf(':');
            return {
              host: entry.slice(0, at).replace(/^\[|\]$/g, ''),
              port: Number(entry.slice(at + 1)),
            };
          }),
      )
      .min(1, 'must name at least one host:port'),
  );
const MEGABYTE = 1024 * 1024;
/** The limits that refuse rather than let through while Redis is away (RATE_LIMIT_FAIL_CLOSED). */
export const FAIL_CLOSED_LIMITS = ['sign-in', 'key-request', 'anonymous', 'key'] as const;
const failClosedLimits = z
  .string()
  .transform((value) =>
    value.trim() === 'none'
      ? []
      : value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
  )
  .pipe(
    z.array(
      z.enum(FAIL_CLOSED_LIMITS, {
        error: `each must be one of ${FAIL_CLOSED_LIMITS.join(', ')}, or none alone`,
      }),
    ),
  );

/**
 * Every environment variable a Hallmark process reads, with its default. `infra/.env.example`
 * lists the same variables (a test keeps the two in step). Defaults make one machine work with
 * no accounts: local PostgreSQL and Redis on their standard ports, files on local disk under
 * HALLMARK_DATA_DIR, secrets generated there on first start.
 */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(3000),
    PUBLIC_URL: url(['http:', 'https:']).optional(),
    DATABASE_URL: url(['postgres:', 'postgresql:']).default(
      'postgresql://postgres@127.0.0.1:5432/hallmark',
    ),
    DATABASE_POOL_MAX: positiveInt.default(10),
    REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
    REDIS_SENTINELS: hostPorts.optional(),
    REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
    REDIS_CLUSTER_NODES: hostPorts.optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[a-zA-Z0-9:_-]+$/, 'may hold only letters, digits, ":", "_" and "-"')
      .default('hallmark'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    HALLMARK_DATA_DIR: z.string().min(1).default('.data'),
    HALLMARK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: url(['http:', 'https:']).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: flag.default(false),
    C2PA_CERT_CHAIN_PATH: z.string().min(1).optional(),
    C2PA_PRIVATE_KEY_PATH: z.string().min(1).optional(),
    C2PA_PRIVATE_KEY_PASSPHRASE: z.string().min(1).optional(),
    C2PA_PRIVATE_KEY_PASSPHRASE_FILE: z.string().min(1).optional(),
    C2PA_PKCS11_URI: z
      .string()
      .regex(/^pkcs11:/, { error: 'must be an RFC 7512 PKCS#11 URI (pkcs11:...)' })
      .optional(),
    C2PA_SIGNING_ALGORITHM: z
      .enum(['es256', 'es384', 'es512', 'ps256', 'ps384', 'ps512', 'ed25519'])
      .optional(),
    C2PA_TSA_URL: url(['http:', 'https:']).optional(),
    C2PA_TRUST_ANCHORS_PATH: z.string().min(1).optional(),
    C2PA_TRUST_LIST_PATH: z.string().min(1).optional(),
    C2PA_TSA_TRUST_ANCHORS_PATH: z.string().min(1).optional(),
    REPORT_SIGNING_KEY_PATH: z.string().min(1).optional(),
    REPORT_CERT_CHAIN_PATH: z.string().min(1).optional(),
    IPFS_DRIVER: z.enum(['embedded', 'kubo']).default('embedded'),
    IPFS_KUBO_URL: url(['http:', 'https:']).optional(),
    IPFS_PINNING_ENDPOINT: url(['http:', 'https:']).optional(),
    IPFS_PINNING_TOKEN: z.string().min(1).optional(),
    IPFS_GATEWAY_URL: url(['http:', 'https:']).optional(),
    CHAIN_RPC_URL: url(['http:', 'https:']).optional(),
    CHAIN_ID: positiveInt.optional(),
    CHAIN_CONTRACT_ADDRESS: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
      .optional(),
    CHAIN_MINTER_KEY: z.string().min(1).optional(),
    CHAIN_MINTER_KEY_FILE: z.string().min(1).optional(),
    NFT_CUSTODY_ADDRESS: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
      .optional(),
    NFT_MARKETPLACE_URL_TEMPLATE: z.string().min(1).optional(),
    UPLOAD_MAX_BYTES: positiveInt.default(50 * MEGABYTE),
    // MP4, MOV and M4A: signed in bounded memory, so they may be far larger than the rest.
    MEDIA_UPLOAD_MAX_BYTES: positiveInt.default(2048 * MEGABYTE),
    MAX_IMAGE_PIXELS: positiveInt.default(50_000_000),
    UPLOAD_LINK_TTL_SECONDS: positiveInt.default(900),
    DOWNLOAD_LINK_TTL_SECONDS: positiveInt.default(3600),
    ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(900),
    RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: positiveInt.default(300),
    RATE_LIMIT_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(64),
    RATE_LIMIT_FAIL_CLOSED: failClosedLimits.default(['sign-in', 'key-request']),
    TRUST_PROXY: z
      .string()
      .regex(
        /^(true|false|\d+|[0-9a-fA-F:./]+(,\s*[0-9a-fA-F:./]+)*)$/,
        'must be true, false, a hop count or a comma-separated list of proxy addresses',
      )
      .default('false'),
    HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(300_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(72_000),
    QUOTA_MINTS_PER_DAY: nonNegativeInt.default(100),
    QUOTA_STORED_BYTES: positiveInt.default(10 * 1024 * MEGABYTE),
    QUOTA_WEBHOOK_ENDPOINTS: positiveInt.default(20),
    NFT_OWNER_REFRESH_SECONDS: positiveInt.default(60),
    RETENTION_INPUT_DAYS: positiveInt.default(7),
    RETENTION_OUTPUT_DAYS: positiveInt.optional(),
    RETENTION_SWEEP_INTERVAL_MS: positiveInt.default(600_000),
    VERIFY_SYNC_MAX_BYTES: positiveInt.default(10 * MEGABYTE),
    VERIFY_RETENTION_HOURS: positiveInt.default(24),
    SOFT_BINDING_API_PUBLIC: flag.default(false),
    PUBLIC_VERIFY: flag.default(false),
    VERIFY_SYNC_QUEUE: nonNegativeInt.default(16),
    VERIFY_ANONYMOUS_MAX_PIXELS: positiveInt.default(12_000_000),
    SMTP_URL: url(['smtp:', 'smtps:']).optional(),
    MAIL_FROM: z.string().min(3).default('Hallmark <hallmark@localhost>'),
    OPERATOR_EMAIL: z.email({ error: 'must be an email address' }).optional(),
    KEY_REQUESTS_PER_HOUR: positiveInt.default(5),
    WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .regex(/^\d+(,\s*\d+)*$/, 'must be a comma-separated list of seconds')
      .default('5,300,1800,7200,18000,36000,36000'),
    WEBHOOK_DISABLE_AFTER_HOURS: positiveInt.default(120),
    WEBHOOK_SECRET_OVERLAP_HOURS: positiveInt.default(24),
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag.default(false),
    WEBHOOK_CONCURRENCY: positiveInt.default(8),
    WEBHOOK_CONCURRENCY_PER_KEY: positiveInt.default(4),
    WEBHOOK_POLL_MS: positiveInt.default(1_000),
    WEBHOOK_LOG_RETENTION_DAYS: positiveInt.default(30),
    API_PROCESSES: positiveInt.default(availableParallelism()),
    API_KEY_CACHE_SECONDS: z.coerce
      .number({ error: 'must be a number' })
      .int()
      .min(0)
      .max(300)
      .default(10),
    JOB_CACHE_SECONDS: z.coerce
      .number({ error: 'must be a number' })
      .int()
      .min(0)
      .max(300)
      .default(5),
    ADMIN_SESSION_HOURS: positiveInt.default(12),
    ADMIN_SESSION_IDLE_MINUTES: positiveInt.default(30),
    ADMIN_PORT: port.default(3001),
    ADMIN_API_PORT: port.optional(),
    ADMIN_API_HOST: z.string().min(1).default('127.0.0.1'),
    ADMIN_API_URL: url(['http:', 'https:']).optional(),
    ADMIN_PUBLIC_URL: url(['http:', 'https:']).optional(),
    WORKER_CONCURRENCY: positiveInt.default(availableParallelism()),
    PIXEL_THREADS: positiveInt.optional(),
    WORKER_HEALTH_PORT: port.optional(),
    METRICS_PORT: port.optional(),
    WORKER_METRICS_PORT: port.optional(),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: url(['http:', 'https:']).optional(),
    OTEL_SERVICE_NAME: z.string().min(1).max(100).default('hallmark'),
    OTEL_BSP_SCHEDULE_DELAY: positiveInt.default(5000),
    OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
    JOB_ATTEMPTS: positiveInt.default(5),
    JOB_TIMEOUT_MS: positiveInt.default(120_000),
    JOB_LOCK_MS: positiveInt.default(30_000),
    RECONCILE_INTERVAL_MS: positiveInt.default(15_000),
    RECONCILE_AFTER_MS: positiveInt.default(30_000),
    SHUTDOWN_TIMEOUT_MS: positiveInt.default(30_000),
    // The video mark's child processes: Debian's packages unless another build is named.
    HALLMARK_FFMPEG: z
      .string()
      .startsWith('/', 'must be an absolute path')
      .default('/usr/bin/ffmpeg'),
    HALLMARK_FFPROBE: z
      .string()
      .startsWith('/', 'must be an absolute path')
      .default('/usr/bin/ffprobe'),
  })
  .superRefine((config, ctx) => {
    // A generated secret lives in one data folder; instances that scale out must share one.
    if (config.NODE_ENV === 'production') {
      const weakness =
        config.HALLMARK_SECRET === undefined
          ? 'is required in production'
          : secretWeakness(config.HALLMARK_SECRET);
      if (weakness !== null) {
        ctx.addIssue({
          code: 'custom',
          path: ['HALLMARK_SECRET'],
          message: `${weakness}: set at least 32 random characters shared by all instances (openssl rand -base64 48)`,
        });
      }
    }
    // A key needs its chain; the chain alone is what the API needs (its trust anchor), and the
    // worker, which signs, refuses to start with a chain but no key (see its C2PA signer).
    if (config.C2PA_PRIVATE_KEY_PATH !== undefined && config.C2PA_CERT_CHAIN_PATH === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['C2PA_CERT_CHAIN_PATH'],
        message: 'is required with C2PA_PRIVATE_KEY_PATH (the key signs as that chain)',
      });
    }
    if (
      config.C2PA_PRIVATE_KEY_PASSPHRASE !== undefined &&
      config.C2PA_PRIVATE_KEY_PASSPHRASE_FILE !== undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['C2PA_PRIVATE_KEY_PASSPHRASE'],
        message: 'and C2PA_PRIVATE_KEY_PASSPHRASE_FILE both give the passphrase: set one',
      });
    }
    if (config.C2PA_PKCS11_URI !== undefined && config.C2PA_CERT_CHAIN_PATH === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['C2PA_CERT_CHAIN_PATH'],
        message: "is required with C2PA_PKCS11_URI (the certificate chain of the token's key)",
      });
    }
    if (config.C2PA_PKCS11_URI !== undefined && config.C2PA_PRIVATE_KEY_PATH !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['C2PA_PKCS11_URI'],
        message: 'and C2PA_PRIVATE_KEY_PATH both name a signing key: set one',
      });
    }
    if (
      (config.REPORT_SIGNING_KEY_PATH === undefined) !==
      (config.REPORT_CERT_CHAIN_PATH === undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: [
          config.REPORT_SIGNING_KEY_PATH === undefined
            ? 'REPORT_SIGNING_KEY_PATH'
            : 'REPORT_CERT_CHAIN_PATH',
        ],
        message:
          'REPORT_SIGNING_KEY_PATH and REPORT_CERT_CHAIN_PATH go together (the key signs as that chain)',
      });
    }
    // Metrics are for the deployment's own scraper, never on a port clients reach.
    for (const name of ['METRICS_PORT', 'WORKER_METRICS_PORT'] as const) {
      const metricsPort = config[name];
      if (metricsPort !== undefined && [config.PORT, config.ADMIN_PORT].includes(metricsPort)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'must differ from PORT and ADMIN_PORT (metrics never share a public port)',
        });
      }
    }
    if (config.REDIS_SENTINELS !== undefined && config.REDIS_CLUSTER_NODES !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message: 'and REDIS_SENTINELS both say where Redis is: set one',
      });
    }
    if (config.IPFS_DRIVER === 'kubo' && config.IPFS_KUBO_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['IPFS_KUBO_URL'],
        message: 'is required when IPFS_DRIVER=kubo',
      });
    }
    if (config.CHAIN_RPC_URL !== undefined) {
      for (const variable of ['CHAIN_ID', 'CHAIN_CONTRACT_ADDRESS'] as const) {
        if (config[variable] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [variable],
            message: 'is required with CHAIN_RPC_URL',
          });
        }
      }
    }
    if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
      });
    }
    if (config.STORAGE_DRIVER === 's3' && config.S3_BUCKET === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required when STORAGE_DRIVER=s3',
      });
    }
  });

export type HallmarkConfig = z.infer<typeof configSchema>;

/** Where `ipfsUrl` points: IPFS_GATEWAY_URL, else the trustless gateway the API itself serves. */
export function ipfsGatewayUrl(
  config: Pick<HallmarkConfig, 'IPFS_GATEWAY_URL' | 'PUBLIC_URL' | 'HOST' | 'PORT'>,
): string {
  return (config.IPFS_GATEWAY_URL ?? `${publicBaseUrl(config)}/gateway`).replace(/\/+$/, '');
}

/**
 * The address clients use to reach this API: PUBLIC_URL when set (behind a proxy), otherwise the
 * host and port it listens on, so every URL the service returns works on one machine as is.
 */
export function publicBaseUrl(
  config: Pick<HallmarkConfig, 'PUBLIC_URL' | 'HOST' | 'PORT'>,
): string {
  if (config.PUBLIC_URL !== undefined) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}
