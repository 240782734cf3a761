import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createSigner,
  InvalidManifestRequestError,
  type ManifestRequest,
  type ManifestSigner,
  signManifest,
} from '@hallmark/watermark-core';
import { type CliIo, UsageError } from '../io.ts';

const argsSpec = {
  author: { type: 'string' },
  copyright: { type: 'string' },
  description: { type: 'string' },
  license: { type: 'string' },
  created: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  pkcs11: { type: 'string' },
  'passphrase-file': { type: 'string' },
  tsa: { type: 'string' },
} as const;

/**
 * Signs `<in>` into `<out>` with the certificate and key given (a key file, or a key in a PKCS#11
 * token named by its RFC 7512 URI), or else with the development
 * identity kept in HALLMARK_DATA_DIR (default `.data`), generated on first use.
 */
export async function sign(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: argsSpec, allowPositionals: true });
  const [input, output, ...extra] = positionals;
  if (input === undefined || output === undefined || extra.length > 0) {
    throw new UsageError('expected an input and an output file');
  }
  const signer = await signerFor(values, io);
  const request: ManifestRequest = {
    title: basename(output),
    parentTitle: basename(input),
    data: definedOnly({
      author: values.author,
      copyright: values.copyright,
      description: values.description,
      licenseType: values.license,
      creationDate: values.created,
    }),
  };
  let signed: Awaited<ReturnType<typeof signManifest>>;
  try {
    signed = await signManifest(await readFile(input), request, signer);
  } catch (error) {
    // Bad metadata is bad usage (exit 2), like a bad flag.
    if (error instanceof InvalidManifestRequestError) {
      throw new UsageError(error.issues.map(flagNames).join('; '));
    }
    throw error;
  } finally {
    // A token's session ends with the command.
    signer.close();
  }
  await writeFile(output, signed.bytes);
  const history = {
    none: '',
    manifest: ", the input's manifest kept as parent ingredient",
    unreadable: ", the input's unreadable manifest recorded as parent ingredient",
  }[signed.parent];
  io.stdout(`signed ${output} (${signed.format})${history}\n`);
  io.stdout(`  signer ${signer.identity.subject}\n`);
  if (signer.identity.isDevelopmentIdentity) {
    io.stdout(
      `  development identity: NOT FOR PRODUCTION; readers trust it only with ${join(developmentFolder(io), 'root-ca.pem')}\n`,
    );
  }
  return 0;
}

type SignArgs = ReturnType<typeof parseArgs<{ options: typeof argsSpec }>>['values'];

async function signerFor(values: SignArgs, io: CliIo): Promise<ManifestSigner> {
  const timestampAuthorityUrl = values.tsa;
  if (values.pkcs11 !== undefined) {
    if (values.key !== undefined)
      throw new UsageError('--pkcs11 and --key both name a key: give one');
    if (values.cert === undefined)
      throw new UsageError("--pkcs11 needs --cert (the token key's chain)");
    return createSigner({
      kind: 'pkcs11',
      uri: values.pkcs11,
      certChainPath: values.cert,
      uriVariable: '--pkcs11',
      timestampAuthorityUrl,
    });
  }
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new UsageError('--cert and --key go together');
  }
  if (values.cert !== undefined && values.key !== undefined) {
    const passphraseFile = values['passphrase-file'];
    return createSigner({
      kind: 'files',
      certChainPath: values.cert,
      privateKeyPath: values.key,
      ...(passphraseFile === undefined
        ? {}
        : { passphrase: (await readFile(passphraseFile, 'utf8')).split(/\r?\n/, 1)[0] ?? '' }),
      timestampAuthorityUrl,
    });
  }
  return createSigner({ kind: 'development', dataDir: dataDir(io), timestampAuthorityUrl });
}

/** Where the service keeps its state: the same folder the API and worker use. */
export function dataDir(io: CliIo): string {
  return resolve(io.env.HALLMARK_DATA_DIR || '.data');
}

function developmentFolder(io: CliIo): string {
  return join(dataDir(io), 'c2pa', 'development-identity');
}

function definedOnly(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** `data.creationDate: ...` reads better as `--created: ...` on a command line. */
function flagNames(issue: string): string {
  return issue
    .replace(/^data\.creationDate/, '--created')
    .replace(/^data\.licenseType/, '--license')
    .replace(/^data\.(author|copyright|description)/, '--$1');
}
