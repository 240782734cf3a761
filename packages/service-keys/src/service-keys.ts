import { hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Keys derived from the one service secret, each for one purpose so none can stand in for another. */
export interface ServiceKeys {
  readonly linkSigning: Uint8Array;
  readonly accessTokens: Uint8Array;
  /** Seals what must be read back, such as webhook signing secrets (see sealed-secret.ts). */
  readonly secretSealing: Uint8Array;
  /** Proves to the API that the console forwarded a client's address (console-forwarding.ts). */
  readonly consoleForwarding: Uint8Array;
}

/** The settings the keys come from (those of the service's configuration of the same names). */
export interface ServiceSecretSettings {
  readonly HALLMARK_SECRET?: string | undefined;
  readonly HALLMARK_DATA_DIR: string;
}

function derive(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'hallmark', purpose, 32));
}

/**
 * HALLMARK_SECRET when set (production requires it: every instance must share it); otherwise a
 * secret generated once into the data folder, so a single machine works with no set-up and keeps
 * its links and tokens valid across restarts. Two processes starting at once agree: each writes a
 * whole candidate file and links it into place (a link never replaces an existing name), so the
 * loser reads the winner's complete secret, never a half-written one.
 */
export async function loadServiceKeys(config: ServiceSecretSettings): Promise<ServiceKeys> {
  const secret = config.HALLMARK_SECRET ?? (await generatedSecret(config.HALLMARK_DATA_DIR));
  return {
    linkSigning: derive(secret, 'link signing v1'),
    accessTokens: derive(secret, 'access tokens v1'),
    secretSealing: derive(secret, 'sealed secrets v1'),
    consoleForwarding: derive(secret, 'console forwarding v1'),
  };
}

async function generatedSecret(dataDir: string): Promise<string> {
  const dir = resolve(dataDir);
  const file = join(dir, 'service-secret');
  await mkdir(dir, { recursive: true });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(candidate, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    await link(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(candidate, { force: true });
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < 32) throw new Error(`${file} is damaged: delete it to generate a new secret`);
  return secret;
}
