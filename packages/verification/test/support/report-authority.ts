// A throwaway certificate authority for report keys, made by `openssl` in a temporary folder: a
// root (EC or RSA), and a signing certificate for an EC key it issues.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ReportAuthority {
  readonly rootPem: string;
  /** Signer first, then the root: what REPORT_CERT_CHAIN_PATH holds. */
  readonly chainPem: string;
  /** PKCS#8 PEM of the signer. */
  readonly keyPem: string;
}

export interface AuthorityOptions {
  readonly root?: 'ec' | 'rsa';
  readonly signerCurve?: 'P-256' | 'P-384';
  readonly name?: string;
}

export async function makeReportAuthority(
  options: AuthorityOptions = {},
): Promise<ReportAuthority> {
  const folder = await mkdtemp(join(tmpdir(), 'hallmark-report-ca-'));
  const openssl = (args: string[]) => run('openssl', args, { cwd: folder });
  try {
    const rootKey =
      options.root === 'rsa' ? ['rsa:2048'] : ['ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
    await openssl([
      'req',
      '-x509',
      '-new',
      '-nodes',
      '-newkey',
      ...rootKey,
      '-keyout',
      'root.key',
      '-out',
      'root.pem',
      '-subj',
      `/CN=${options.name ?? 'Test Report Root'}`,
      '-days',
      '30',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    ]);
    await openssl([
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      `ec_paramgen_curve:${options.signerCurve ?? 'P-256'}`,
      '-out',
      'signer.key',
    ]);
    await openssl([
      'req',
      '-new',
      '-key',
      'signer.key',
      '-subj',
      '/CN=Test Reports/O=Example',
      '-out',
      'signer.csr',
    ]);
    await writeFile(
      join(folder, 'signer.ext'),
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n',
    );
    await openssl([
      'x509',
      '-req',
      '-in',
      'signer.csr',
      '-CA',
      'root.pem',
      '-CAkey',
      'root.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-sha256',
      '-extfile',
      'signer.ext',
      '-out',
      'signer.pem',
    ]);
    const [rootPem, signerPem, keyPem] = await Promise.all(
      ['root.pem', 'signer.pem', 'signer.key'].map((file) => readFile(join(folder, file), 'utf8')),
    );
    return {
      rootPem: rootPem as string,
      chainPem: `${signerPem}${rootPem}`,
      keyPem: keyPem as string,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
