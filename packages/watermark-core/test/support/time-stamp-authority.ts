// A local RFC 3161 time-stamp authority for the tests: OpenSSL's `ts -reply` behind a small HTTP
// server, with its own CA and a signing certificate for time-stamping only (extended key usage
// timeStamping, critical), all made by `openssl` in a throwaway folder.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const openssl = (args: string[], cwd: string) => promisify(execFile)('openssl', args, { cwd });

export interface TimeStampAuthority {
  readonly url: string;
  /** The authority's root certificate (PEM): trust it to trust its time-stamps. */
  readonly rootPem: string;
  /** Time-stamp requests answered so far. */
  readonly answered: () => number;
  close(): Promise<void>;
}

const EXTENSIONS = `
[ca]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[tsa]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

const tsaConfig = (dir: string) => `
[ tsa ]
default_tsa = local
[ local ]
dir = ${dir}
serial = $dir/serial
crypto_device = builtin
signer_cert = $dir/tsa.crt
certs = $dir/chain.crt
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

export async function startTimeStampAuthority(): Promise<TimeStampAuthority> {
  const dir = await mkdtemp(join(tmpdir(), 'hallmark-tsa-'));
  await writeFile(join(dir, 'ext.cnf'), EXTENSIONS);
  await writeFile(join(dir, 'tsa.cnf'), tsaConfig(dir));
  await writeFile(join(dir, 'serial'), '01\n');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/O=Hallmark tests/CN=Hallmark Test TSA Root',
      '-extensions',
      'ca',
      '-config',
      'ext.cnf',
    ],
    dir,
  );
  await openssl(
    [
      'req',
      ...ec,
      '-keyout',
      'tsa.key',
      '-out',
      'tsa.csr',
      '-subj',
      '/O=Hallmark tests/CN=Hallmark Test TSA',
    ],
    dir,
  );
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      'tsa.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'tsa.crt',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
      '-extensions',
      'tsa',
    ],
    dir,
  );
  const rootPem = await readFile(join(dir, 'ca.crt'), 'utf8');
  await writeFile(join(dir, 'chain.crt'), (await readFile(join(dir, 'tsa.crt'), 'utf8')) + rootPem);

  let answered = 0;
  let sequence = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = `q${++sequence}`;
      const reply = async () => {
        await writeFile(join(dir, `${name}.tsq`), Buffer.concat(chunks));
        await openssl(
          [
            'ts',
            '-reply',
            '-config',
            'tsa.cnf',
            '-queryfile',
            `${name}.tsq`,
            '-out',
            `${name}.tsr`,
          ],
          dir,
        );
        return readFile(join(dir, `${name}.tsr`));
      };
      reply().then(
        (body) => {
          answered++;
          response.writeHead(200, { 'content-type': 'application/timestamp-reply' });
          response.end(body);
        },
        () => {
          response.writeHead(400);
          response.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    rootPem,
    answered: () => answered,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
