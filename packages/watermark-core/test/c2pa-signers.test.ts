import { execFile } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueDevelopmentIdentity, positiveSerial } from '../src/c2pa/dev-ca.ts';
import {
  createSigner,
  DEVELOPMENT_ROOT_COMMON_NAME,
  DEVELOPMENT_SIGNER_COMMON_NAME,
  ManifestSigningError,
  readManifest,
  resolveTrustAnchors,
  SignerConfigurationError,
  signManifest,
  TimestampUnavailableError,
} from '../src/c2pa/index.ts';
import { photo, temporaryDataDir } from './c2pa-fixtures.ts';

let data: Awaited<ReturnType<typeof temporaryDataDir>>;
beforeEach(async () => {
  data = await temporaryDataDir();
});
afterEach(() => data.remove());

async function signsTrusted(
  signer: Awaited<ReturnType<typeof createSigner>>,
  trustAnchors: string,
): Promise<void> {
  const signed = await signManifest(await photo('fig-0.25mp.jpg'), { fileId: 'f' }, signer);
  const summary = await readManifest(signed, { trustAnchors });
  expect(summary.present && summary.validation).toEqual({ state: 'trusted', failures: [] });
}

describe('development signer', () => {
  it('generates a root and a signing certificate once, then reuses them', async () => {
    const first = await createSigner({ kind: 'development', dataDir: data.dir });
    const second = await createSigner({ kind: 'development', dataDir: data.dir });
    expect(second.certChainPem).toBe(first.certChainPem);
    expect(first.identity).toMatchObject({
      subject: DEVELOPMENT_SIGNER_COMMON_NAME,
      issuer: DEVELOPMENT_ROOT_COMMON_NAME,
      isDevelopmentIdentity: true,
    });
    expect(first.algorithm).toBe('es256');

    const folder = join(data.dir, 'c2pa', 'development-identity');
    expect((await readdir(folder)).sort()).toEqual([
      'README.txt',
      'root-ca.pem',
      'signer-chain.pem',
      'signer-key.pem',
    ]);
    expect((await stat(join(folder, 'signer-key.pem'))).mode & 0o777).toBe(0o600);
    await signsTrusted(first, first.trustAnchorsPem ?? '');
  });

  it('issues certificates with the extensions C2PA requires', async () => {
    const issued = await issueDevelopmentIdentity();
    const [signerPem, rootPem] = issued.signerChainPem.split(/(?<=-----END CERTIFICATE-----\n)/);
    expect(rootPem).toBe(issued.rootCertificatePem);
    const root = new X509Certificate(issued.rootCertificatePem);
    const signer = new X509Certificate(signerPem ?? '');
    expect(root.ca).toBe(true);
    expect(signer.ca).toBe(false);
    expect(signer.verify(root.publicKey)).toBe(true);
    expect(signer.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(signer.keyUsage).toEqual(['1.3.6.1.5.5.7.3.4', '1.3.6.1.5.5.7.3.36']);

    const extensions = parsedExtensions(signerPem ?? '');
    expect(extensions.get('2.5.29.19')).toMatchObject({ critical: true }); // CA:FALSE
    const keyUsage = extensions.get('2.5.29.15');
    expect(keyUsage?.critical).toBe(true);
    expect(keyUsage?.bits).toBe(0x80); // digitalSignature only
    expect(extensions.has('2.5.29.14')).toBe(true); // subject key identifier
    expect(extensions.has('2.5.29.35')).toBe(true); // authority key identifier
    expect(parsedExtensions(issued.rootCertificatePem).get('2.5.29.15')?.bits).toBe(0x06);
  });

  it('draws serial numbers that always encode as minimal positive DER integers', () => {
    for (let first = 0; first < 256; first += 1) {
      const serial = positiveSerial(Uint8Array.from([first, 0x00, ...new Array(14).fill(0x7f)]));
      expect(serial[0]).toBeGreaterThanOrEqual(0x40);
      expect(serial[0]).toBeLessThanOrEqual(0x7f);
      expect(serial.length).toBe(16);
    }
  });

  it('publishes exactly one identity when generations overlap', async () => {
    // Overlapping in one process is deterministic: every call finds no identity, generates one,
    // and all but the first rename lose and adopt the published identity.
    const signers = await Promise.all(
      [1, 2, 3, 4].map(() => createSigner({ kind: 'development', dataDir: data.dir })),
    );
    expect(new Set(signers.map((signer) => signer.certChainPem)).size).toBe(1);
    expect(await readdir(join(data.dir, 'c2pa'))).toEqual(['development-identity']);
  });

  it('produces one identity when several processes start at once', async () => {
    const module = pathToFileURL(join(import.meta.dirname, '../src/c2pa/index.ts')).href;
    const script = `const { createSigner } = await import(${JSON.stringify(module)});
      const signer = await createSigner({ kind: 'development', dataDir: process.argv[1] });
      process.stdout.write(signer.certChainPem);`;
    const run = () =>
      promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, data.dir]);
    const outputs = await Promise.all([run(), run(), run(), run()]);
    const chains = new Set(outputs.map((output) => output.stdout));
    expect(chains.size).toBe(1);
    // Losers cleaned their staging folders up.
    expect(await readdir(join(data.dir, 'c2pa'))).toEqual(['development-identity']);
  });

  it('refuses a damaged identity, naming its folder', async () => {
    await createSigner({ kind: 'development', dataDir: data.dir });
    const folder = join(data.dir, 'c2pa', 'development-identity');
    const other = await issueDevelopmentIdentity();
    await writeFile(join(folder, 'signer-key.pem'), other.signerPrivateKeyPem);
    const error = await createSigner({ kind: 'development', dataDir: data.dir }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SignerConfigurationError);
    expect((error as Error).message).toContain(folder);
  });
});

describe('signer from certificate and key files', () => {
  it('signs with a chain and key read from files, trusted by that chain’s root', async () => {
    const issued = await issueDevelopmentIdentity();
    const certChainPath = join(data.dir, 'chain.pem');
    const privateKeyPath = join(data.dir, 'key.pem');
    await writeFile(certChainPath, issued.signerChainPem);
    await writeFile(privateKeyPath, issued.signerPrivateKeyPem);
    const signer = await createSigner({ kind: 'files', certChainPath, privateKeyPath });
    expect(signer.algorithm).toBe('es256'); // derived from the P-256 key
    expect(signer.trustAnchorsPem).toBeUndefined();
    await signsTrusted(signer, issued.rootCertificatePem);
  });

  it('refuses a key that does not belong to the certificate', async () => {
    const issued = await issueDevelopmentIdentity();
    const stranger = await issueDevelopmentIdentity();
    const certChainPath = join(data.dir, 'chain.pem');
    const privateKeyPath = join(data.dir, 'key.pem');
    await writeFile(certChainPath, issued.signerChainPem);
    await writeFile(privateKeyPath, stranger.signerPrivateKeyPem);
    await expect(createSigner({ kind: 'files', certChainPath, privateKeyPath })).rejects.toThrow(
      /private key does not belong/,
    );
  });

  it('refuses an algorithm the key cannot make, and missing files', async () => {
    const issued = await issueDevelopmentIdentity();
    const certChainPath = join(data.dir, 'chain.pem');
    const privateKeyPath = join(data.dir, 'key.pem');
    await writeFile(certChainPath, issued.signerChainPem);
    await writeFile(privateKeyPath, issued.signerPrivateKeyPem);
    await expect(
      createSigner({ kind: 'files', certChainPath, privateKeyPath, algorithm: 'es384' }),
    ).rejects.toThrow(/cannot make es384 signatures/);
    await expect(
      createSigner({ kind: 'files', certChainPath, privateKeyPath: join(data.dir, 'missing') }),
    ).rejects.toBeInstanceOf(SignerConfigurationError);
  });

  it('opens an encrypted PKCS#8 key with its passphrase, and says what is wrong without it', async () => {
    const issued = await issueDevelopmentIdentity();
    const certChainPath = join(data.dir, 'chain.pem');
    const privateKeyPath = join(data.dir, 'key.pem');
    await writeFile(certChainPath, issued.signerChainPem);
    const encrypted = createPrivateKey(issued.signerPrivateKeyPem).export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'correct horse',
    });
    expect(encrypted).toContain('ENCRYPTED PRIVATE KEY');
    await writeFile(privateKeyPath, encrypted);
    const files = { kind: 'files', certChainPath, privateKeyPath } as const;
    await signsTrusted(
      await createSigner({ ...files, passphrase: 'correct horse' }),
      issued.rootCertificatePem,
    );
    await expect(createSigner(files)).rejects.toThrow(
      `${privateKeyPath} is encrypted: give its passphrase`,
    );
    await expect(createSigner({ ...files, passphrase: 'wrong' })).rejects.toThrow(
      `${privateKeyPath} cannot be decrypted with the passphrase given`,
    );
  });

  it('refuses a chain whose first certificate is the CA', async () => {
    const issued = await issueDevelopmentIdentity();
    const certChainPath = join(data.dir, 'chain.pem');
    const privateKeyPath = join(data.dir, 'key.pem');
    await writeFile(certChainPath, issued.rootCertificatePem);
    await writeFile(privateKeyPath, issued.signerPrivateKeyPem);
    await expect(createSigner({ kind: 'files', certChainPath, privateKeyPath })).rejects.toThrow(
      /end-entity signing certificate first/,
    );
  });
});

describe('callback signer (key outside the signing process)', () => {
  /**
   * A stand-in for a KMS/HSM: the private key lives in a worker thread that only ever answers
   * "sign these bytes"; the main thread holds the certificate chain and a function.
   */
  function startKeyService(privateKeyPem: string) {
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { createPrivateKey, sign } = require('node:crypto');
       const key = createPrivateKey(workerData.privateKeyPem);
       parentPort.on('message', ({ id, bytes }) => {
         if (bytes.length === 0) return parentPort.postMessage({ id, error: 'KMS refused' });
         parentPort.postMessage({ id, signature: sign('sha256', bytes, { key, dsaEncoding: 'ieee-p1363' }) });
       });`,
      { eval: true, workerData: { privateKeyPem } },
    );
    const pending = new Map<number, (reply: { signature?: Uint8Array; error?: string }) => void>();
    worker.on('message', (reply: { id: number; signature?: Uint8Array; error?: string }) =>
      pending.get(reply.id)?.(reply),
    );
    let next = 0;
    let calls = 0;
    return {
      get calls() {
        return calls;
      },
      sign(bytes: Uint8Array): Promise<Uint8Array> {
        calls += 1;
        const id = next++;
        return new Promise((resolve, reject) => {
          pending.set(id, (reply) =>
            reply.signature ? resolve(reply.signature) : reject(new Error(reply.error)),
          );
          worker.postMessage({ id, bytes });
        });
      },
      stop: () => worker.terminate(),
    };
  }

  const services: { stop: () => Promise<number> }[] = [];
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
  });

  it('signs through the separate signing function and reads back trusted', async () => {
    const issued = await issueDevelopmentIdentity();
    const kms = startKeyService(issued.signerPrivateKeyPem);
    services.push(kms);
    const signer = await createSigner({
      kind: 'callback',
      certChainPem: issued.signerChainPem,
      algorithm: 'es256',
      sign: (bytes) => kms.sign(bytes),
    });
    await signsTrusted(signer, issued.rootCertificatePem);
    expect(kms.calls).toBe(1);
  });

  it('turns a refusal of the signing function into a ManifestSigningError', async () => {
    const issued = await issueDevelopmentIdentity();
    const signer = await createSigner({
      kind: 'callback',
      certChainPem: issued.signerChainPem,
      algorithm: 'es256',
      sign: () => Promise.reject(new Error('KMS quota exceeded')),
    });
    const error = await signManifest(await photo('fig-0.25mp.jpg'), {}, signer).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ManifestSigningError);
    expect((error as ManifestSigningError).code).toBe('signing_failed');
    expect((error as Error).message).toContain('KMS quota exceeded');
  });

  it('refuses an algorithm that does not fit the certificate’s key', async () => {
    const issued = await issueDevelopmentIdentity();
    await expect(
      createSigner({
        kind: 'callback',
        certChainPem: issued.signerChainPem,
        algorithm: 'ed25519',
        sign: async () => new Uint8Array(64),
      }),
    ).rejects.toBeInstanceOf(SignerConfigurationError);
  });
});

describe('timestamp authority', () => {
  it('asks the configured authority and fails the signing when it does not answer well', async () => {
    const requests: { method?: string; contentType?: string }[] = [];
    const server = createServer((request, response) => {
      requests.push({ method: request.method, contentType: request.headers['content-type'] });
      request.resume();
      request.on('end', () => response.writeHead(503).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const signer = await createSigner({
        kind: 'development',
        dataDir: data.dir,
        timestampAuthorityUrl: `http://127.0.0.1:${port}/tsa`,
      });
      expect(signer.timestampAuthorityUrl).toBe(`http://127.0.0.1:${port}/tsa`);
      await expect(signManifest(await photo('fig-0.25mp.jpg'), {}, signer)).rejects.toBeInstanceOf(
        TimestampUnavailableError,
      );
      expect(requests).toEqual([{ method: 'POST', contentType: 'application/timestamp-query' }]);
    } finally {
      server.close();
    }
  });

  it('refuses a timestamp authority that is not an http(s) URL', async () => {
    await expect(
      createSigner({ kind: 'development', dataDir: data.dir, timestampAuthorityUrl: 'ftp://tsa' }),
    ).rejects.toBeInstanceOf(SignerConfigurationError);
  });
});

describe('trust anchors', () => {
  it('merges a PEM bundle with the development root, without duplicates', async () => {
    const signer = await createSigner({ kind: 'development', dataDir: data.dir });
    const other = await issueDevelopmentIdentity();
    const bundlePath = join(data.dir, 'anchors.pem');
    await writeFile(bundlePath, other.rootCertificatePem + (signer.trustAnchorsPem ?? ''));
    const anchors = await resolveTrustAnchors({ bundlePath, signer });
    expect(anchors?.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    await signsTrusted(signer, anchors ?? '');
  });

  it('is undefined with no source, and refuses a bundle without certificates', async () => {
    expect(await resolveTrustAnchors({})).toBeUndefined();
    const { privateKey } = generateKeyPairSync('ed25519');
    const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(resolveTrustAnchors({ bundlePem: keyPem })).rejects.toThrow(/no PEM certificate/);
  });
});

/** Extensions of a PEM certificate as pkijs reads them: criticality and, for key usage, bits. */
function parsedExtensions(pem: string): Map<string, { critical: boolean; bits?: number }> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const certificate = pkijs.Certificate.fromBER(der);
  return new Map(
    (certificate.extensions ?? []).map((extension) => {
      const value = asn1js.fromBER(extension.extnValue.getValue()).result;
      const bits = value instanceof asn1js.BitString ? value.valueBlock.valueHexView[0] : undefined;
      return [extension.extnID, { critical: extension.critical, bits }];
    }),
  );
}
