import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type CheckedReport, checkReport, ReportCheckError } from '@hallmark/sdk';
import { type CliIo, UsageError } from '../io.ts';

/**
 * `hallmark report check REPORT [IMAGE] --trust ROOTS.pem [--tsa-trust TSA.pem]`: checks a signed
 * verification report
 * offline (no server, no network): its signature, its certificate chain against the roots
 * given, and, with the image, that it is the file the report is about. REPORT is the JSON the
 * service answered or the HTML rendering that carries it. Exit 0 when it holds, 1 when not.
 */
export async function report(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'check')
    throw new UsageError('expected: hallmark report check REPORT [IMAGE] --trust ROOTS.pem');
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      trust: { type: 'string' },
      'tsa-trust': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const [reportPath, imagePath, ...extra] = positionals;
  if (reportPath === undefined || extra.length > 0) {
    throw new UsageError('expected a report file and, optionally, the image it is about');
  }
  if (values.trust === undefined) {
    throw new UsageError(
      '--trust ROOTS.pem is required: the roots you trust (for the development identity, its root-ca.pem)',
    );
  }
  const tsaTrust = values['tsa-trust'];
  const [text, trustAnchors, timeStampAnchors, file] = await Promise.all([
    readFile(reportPath, 'utf8').then(signedReportText),
    readFile(values.trust, 'utf8'),
    tsaTrust === undefined ? undefined : readFile(tsaTrust, 'utf8'),
    imagePath === undefined ? undefined : readFile(imagePath),
  ]);
  let checked: CheckedReport;
  try {
    checked = await checkReport(text, {
      trustAnchors,
      ...(timeStampAnchors === undefined ? {} : { timeStampAnchors }),
      ...(file === undefined ? {} : { file }),
    });
  } catch (error) {
    if (!(error instanceof ReportCheckError)) throw error;
    io.stdout(
      values.json
        ? `${JSON.stringify({ valid: false, code: error.code, message: error.message })}\n`
        : `${reportPath}: REFUSED (${error.code}): ${error.message}\n`,
    );
    return 1;
  }
  io.stdout(
    values.json
      ? `${JSON.stringify({ valid: true, ...checked }, null, 2)}\n`
      : describe(reportPath, checked, imagePath),
  );
  return 0;
}

/**
 * The signed report inside a file: the JSON itself, or the HTML rendering, which carries it
 * verbatim in a `<script type="application/json">` block (base64url and member names only, so
 * nothing in it needs escaping).
 */
export function signedReportText(content: string): string {
  if (!content.trimStart().startsWith('<')) return content;
  const match =
    /<script type="application\/json" id="hallmark-signed-report">([^<]*)<\/script>/.exec(content);
  if (match?.[1] === undefined) {
    throw new UsageError('this HTML file carries no signed report (id="hallmark-signed-report")');
  }
  return match[1];
}

function describe(path: string, checked: CheckedReport, imagePath: string | undefined): string {
  const { statement } = checked;
  const lines = [
    `${path}: VALID signed report`,
    `  verdict:      ${statement.verdict}`,
    ...statement.reasons.map((reason) => `    ${reason.code}: ${reason.message}`),
    `  file:         SHA-256 ${statement.file.sha256}, ${statement.file.size} bytes`,
    imagePath === undefined
      ? '                (not compared: give the image to check it is this file)'
      : `                is ${imagePath}`,
    `  verified at:  ${statement.verifiedAt}`,
    `  signed at:    ${statement.issuedAt} (the service's clock)`,
    checked.timeStamp === null
      ? '  time-stamp:   none (the certificates were checked as of now)'
      : `  time-stamp:   ${checked.timeStamp.time} by ${checked.timeStamp.authority}${checked.timeStamp.trusted ? '' : ' (not trusted: give --tsa-trust ROOTS.pem)'}`,
    `  signed by:    ${checked.signer}`,
    `  service:      ${statement.service.name} ${statement.service.version} at ${statement.service.url}`,
  ];
  if (statement.reportKey.development) {
    lines.push(
      '  WARNING: signed by a development identity (NOT FOR PRODUCTION): trust it nowhere else',
    );
  }
  return `${lines.join('\n')}\n`;
}
