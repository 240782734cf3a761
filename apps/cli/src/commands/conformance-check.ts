import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readCrJson, resolveTrustAnchors } from '@hallmark/watermark-core';
import { type CliIo, UsageError } from '../io.ts';

const argsSpec = {
  'trust-list': { type: 'string' },
  'tsa-list': { type: 'string' },
  at: { type: 'string' },
} as const;

/** RFC 3339's date-time: a full date, a time with seconds, and an offset (Z or ±hh:mm). */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The harness the C2PA conformance programme asks a validating product for: an asset, the test
 * trust list, the test TSA trust list and a validation time in, crJSON out. Exit 0 whenever a
 * report is printed, whatever it says (the verdict is in the report); 1 when none can be made,
 * among them a validation time c2pa-node cannot honour (docs/verification.md, "crJSON").
 */
export async function conformanceCheck(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: argsSpec, allowPositionals: true });
  const [asset, ...extra] = positionals;
  if (asset === undefined || extra.length > 0) throw new UsageError('expected exactly one asset');
  const trustListPath = values['trust-list'];
  const tsaListPath = values['tsa-list'];
  if (trustListPath === undefined || tsaListPath === undefined) {
    throw new UsageError('--trust-list and --tsa-list are both required');
  }
  const validationTime = values.at === undefined ? undefined : parseTime(values.at);
  const document = await readCrJson(await readFile(asset), {
    trustList: await resolveTrustAnchors({ bundlePath: trustListPath }),
    tsaTrustList: await resolveTrustAnchors({ bundlePath: tsaListPath }),
    ...(validationTime === undefined ? {} : { validationTime }),
  });
  io.stdout(`${JSON.stringify(document, null, 2)}\n`);
  return 0;
}

function parseTime(text: string): Date {
  const time = new Date(text);
  if (!RFC_3339.test(text) || Number.isNaN(time.getTime())) {
    throw new UsageError(`--at ${text} is not an RFC 3339 date-time (e.g. 2025-06-01T12:00:00Z)`);
  }
  return time;
}
