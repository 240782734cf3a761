import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type CrJsonDocument,
  findDevelopmentIdentity,
  type IngredientSummary,
  type ManifestSummary,
  readCrJson,
  readManifest,
  resolveTrustAnchors,
  type SignerSummary,
  type ValidationSummary,
} from '@hallmark/watermark-core';
import { type CliIo, UsageError } from '../io.ts';
import { dataDir } from './sign.ts';

const argsSpec = {
  json: { type: 'boolean', default: false },
  crjson: { type: 'boolean', default: false },
  trust: { type: 'string' },
  'trust-list': { type: 'string' },
} as const;

/**
 * Reads and validates a file's C2PA manifest against the roots given: `--trust` (your own) and
 * `--trust-list` (a public list, e.g. the C2PA Trust List with its TSA list). Nothing else is
 * trusted, this machine's development root included: where HALLMARK_DATA_DIR holds one, the text
 * says how to trust it. `--crjson` prints the C2PA's own JSON report instead (crJSON).
 */
export async function inspect(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: argsSpec, allowPositionals: true });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('expected exactly one file');
  if (values.json && values.crjson) throw new UsageError('--json and --crjson exclude each other');
  const development = await findDevelopmentIdentity(dataDir(io));
  const trustAnchors = await resolveTrustAnchors(
    values.trust === undefined ? {} : { bundlePath: values.trust },
  );
  const trustList = await resolveTrustAnchors(
    values['trust-list'] === undefined ? {} : { bundlePath: values['trust-list'] },
  );
  if (values.crjson) {
    const document = await readCrJson(await readFile(file), { trustAnchors, trustList });
    io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    return isValid(document) ? 0 : 1;
  }
  const summary = await readManifest(await readFile(file), { trustAnchors, trustList });
  if (values.json) {
    io.stdout(`${JSON.stringify(summary, bytesAsBase64, 2)}\n`);
  } else {
    const developmentRoot =
      development === undefined ? null : join(development.directory, 'root-ca.pem');
    io.stdout(describe(file, summary, developmentRoot));
  }
  return summary.present && summary.validation.state !== 'invalid' ? 0 : 1;
}

/** Ingredient thumbnails print as base64, not as an object of numbered bytes. */
function bytesAsBase64(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
}

/**
 * The same answer as the summary's: a manifest is there and its failures at most say that no
 * anchor vouches for the signer.
 */
function isValid(document: CrJsonDocument): boolean {
  const failures = document.manifests[0]?.validationResults.failure;
  return failures?.every((status) => status.code === 'signingCredential.untrusted') ?? false;
}

const STATES: Record<ValidationSummary['state'], string> = {
  trusted: 'valid, signer trusted',
  valid_untrusted: 'valid, signer not trusted (no trust anchor vouches for it)',
  invalid: 'INVALID',
};

const TRUSTED_BY = {
  trust_list: 'the trust list (--trust-list)',
  operator_anchors: 'your anchors (--trust)',
} as const;

function describe(file: string, summary: ManifestSummary, developmentRoot: string | null): string {
  if (!summary.present) return `${file} (${summary.format}): no C2PA manifest\n`;
  const lines = [`${file} (${summary.format}): C2PA manifest ${STATES[summary.validation.state]}`];
  const field = (name: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) lines.push(`  ${name.padEnd(13)}${value}`);
  };
  field('manifest', summary.manifestLabel);
  field('title', summary.title);
  field('generator', summary.claimGenerator);
  field('signed by', summary.signer === null ? null : signerLine(summary.signer));
  field(
    'signed at',
    summary.signer?.signingTime == null
      ? 'no time-stamp'
      : `${summary.signer.signingTime} (time-stamp authority ${summary.signer.timeStamp === 'trusted' ? 'trusted' : 'not trusted'})`,
  );
  field(
    'trusted by',
    summary.signer?.trustedBy == null ? null : TRUSTED_BY[summary.signer.trustedBy],
  );
  field('actions', summary.actions.map((action) => action.action).join(', ') || null);
  field('author', summary.metadata.author);
  field('created', summary.metadata.creationDate);
  field('description', summary.metadata.description);
  field('copyright', summary.metadata.copyright);
  field('license', summary.metadata.licenseType);
  field('file id', summary.identifiers.fileId);
  field('request id', summary.identifiers.requestId);
  field(
    'soft binding',
    summary.softBinding && `${summary.softBinding.algorithm} ${summary.softBinding.payloadHex}`,
  );
  if (summary.signer?.isDevelopmentIdentity && summary.signer.trustedBy == null) {
    field(
      'trust',
      developmentRoot === null
        ? 'a development identity (NOT FOR PRODUCTION): trusted only with its root-ca.pem'
        : `a development identity (NOT FOR PRODUCTION): --trust ${developmentRoot} to trust this machine's`,
    );
  }
  for (const failure of summary.validation.failures) {
    lines.push(`  ! ${failure.code}${failure.explanation ? `: ${failure.explanation}` : ''}`);
  }
  if (summary.ingredients.length > 0) {
    lines.push('  history');
    lines.push(...summary.ingredients.flatMap((ingredient) => historyLines(ingredient, '    ')));
  }
  return `${lines.join('\n')}\n`;
}

function signerLine(signer: SignerSummary): string {
  const issuer = signer.issuer === null ? '' : `, issued by ${signer.issuer}`;
  const development = signer.isDevelopmentIdentity ? ' [development identity]' : '';
  return `${signer.subject ?? 'unknown'}${issuer}${development}`;
}

function historyLines(ingredient: IngredientSummary, indent: string): string[] {
  const name = ingredient.title ?? ingredient.format ?? 'untitled';
  const provenance =
    ingredient.provenance === 'none'
      ? 'no provenance'
      : ingredient.validation === null
        ? ingredient.provenance
        : STATES[ingredient.validation.state];
  const signer = ingredient.signer === null ? '' : `; ${signerLine(ingredient.signer)}`;
  const actions =
    ingredient.actions.length === 0
      ? ''
      : `; ${ingredient.actions.map((action) => action.action).join(', ')}`;
  const failures = (ingredient.validation?.failures ?? [])
    .filter((failure) => failure.code !== 'signingCredential.untrusted')
    .map((failure) => `${indent}  ! ${failure.code}`);
  return [
    `${indent}${ingredient.relationship} ${name}: ${provenance}${signer}${actions}`,
    ...failures,
    ...ingredient.ingredients.flatMap((parent) => historyLines(parent, `${indent}  `)),
  ];
}
