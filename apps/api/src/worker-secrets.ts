import type { HallmarkConfig, Logger } from '@hallmark/config';

/**
 * Settings only the worker uses that would be worth stealing: the NFT minter key (or its file)
 * and the C2PA signing key's file or token (whose URI may carry its PIN). The API parses untrusted images, so it should not hold them.
 */
export const WORKER_ONLY_SECRETS = [
  'CHAIN_MINTER_KEY',
  'CHAIN_MINTER_KEY_FILE',
  'C2PA_PRIVATE_KEY_PATH',
  'C2PA_PKCS11_URI',
  'C2PA_PRIVATE_KEY_PASSPHRASE',
  'C2PA_PRIVATE_KEY_PASSPHRASE_FILE',
] as const;

/**
 * The API's configuration without the worker's secrets, and the process environment without
 * them too (API processes forked later inherit none of them). A deployment that passes them to
 * the API is told so once: they belong in the worker's environment alone.
 */
export function dropWorkerSecrets(
  config: HallmarkConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): HallmarkConfig {
  const given = WORKER_ONLY_SECRETS.filter(
    (name) => config[name] !== undefined || env[name] !== undefined,
  );
  if (given.length === 0) return config;
  logger.warn(
    { settings: given },
    'the API was given settings only the worker uses; it dropped them: give them to the worker alone',
  );
  const kept: HallmarkConfig = { ...config };
  for (const name of given) {
    delete kept[name];
    delete env[name];
  }
  return kept;
}
