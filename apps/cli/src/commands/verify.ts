import { readFile, stat, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  contentTypeOfName,
  HallmarkClient,
  isProblem,
  problemTypes,
  UnknownContentTypeError,
  type VerifiedFile,
  verifyFile,
  verifyImage,
} from '@hallmark/sdk';
import { DEFAULT_MAX_PIXELS, drawRegions } from '@hallmark/watermark-core';
import { apiBaseUrl } from '../environment.ts';
import { type CliIo, UsageError } from '../io.ts';

/**
 * Exit codes by verdict: 0 authentic, 3 provenance found but not whole, 4 tampering (an edited
 * copy included), 5 none.
 */
const EXIT_CODES: Record<string, number> = {
  authentic: 0,
  manifest_stripped: 3,
  manifest_only: 3,
  unknown_mark: 3,
  mismatch: 4,
  content_edited: 4,
  manifest_invalid: 4,
  no_provenance: 5,
};

/**
 * The API's default `VERIFY_SYNC_MAX_BYTES`: a file up to it goes in the request, a larger one
 * as a job. A deployment with a lower limit answers `payload-too-large` and gets the job.
 */
const IN_REQUEST_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Sends the file, has the server verify it, and prints the verdict with its reasons (or the
 * whole report with `--json`). The exit code tells the verdict, so scripts can branch on it.
 * `--regions out.png` also writes the copy with the regions where it was edited outlined;
 * `--report out.json` the signed report of the verification, to keep and check offline.
 */
export async function verify(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      json: { type: 'boolean', default: false },
      url: { type: 'string' },
      regions: { type: 'string' },
      report: { type: 'string' },
    },
    allowPositionals: true,
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) {
    throw new UsageError('expected exactly one file to verify');
  }
  const token = io.env.HALLMARK_API_KEY;
  if (!token) throw new UsageError('HALLMARK_API_KEY is not set: export the API key to use');
  const client = new HallmarkClient({ baseUrl: values.url ?? apiBaseUrl(io.env), token });
  let verified: VerifiedFile;
  try {
    verified = await verifyEitherWay(client, file);
  } catch (error) {
    if (error instanceof UnknownContentTypeError) {
      throw new UsageError(`cannot tell the type of ${file} from its extension`);
    }
    throw error;
  }
  const { report } = verified;
  const { requestId } = verified.verification;
  if (values.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.stdout(`${report.verdict}\n`);
    for (const reason of report.reasons) io.stdout(`  ${reason.code}: ${reason.message}\n`);
    for (const region of report.content.regions) {
      io.stdout(`  edited: ${region.width}x${region.height} at ${region.x},${region.y}\n`);
    }
    if (report.record !== null) {
      const facts = Object.entries(report.metadata)
        .map(([name, value]) => `${name}=${value}`)
        .join(', ');
      io.stdout(`  record: issued ${new Date(report.record.issuedAt * 1000).toISOString()}`);
      io.stdout(facts === '' ? '\n' : `; ${facts}\n`);
      if (report.record.manifestUrl !== null) {
        io.stdout(`  original manifest: ${report.record.manifestUrl}\n`);
      }
    }
  }
  if (values.regions !== undefined) {
    // Told by its name, as the file was sent: a clip or a recording has no picture to outline.
    if (contentTypeOfName(file)?.startsWith('image/') !== true) {
      if (!values.json) io.stdout(`  regions: none drawn (${file} is not a picture)\n`);
    } else {
      const picture = await drawRegions(
        await readFile(file),
        report.content.regions,
        DEFAULT_MAX_PIXELS,
      );
      await writeFile(values.regions, picture);
      const count = report.content.regions.length;
      if (!values.json) {
        io.stdout(`  regions: ${count === 0 ? 'none' : count} drawn in ${values.regions}\n`);
      }
    }
  }
  if (values.report !== undefined) {
    // Parsed members serialise back in their order: the bytes the service signed over stay whole.
    const signed = await client.getVerificationReport(requestId);
    await writeFile(values.report, `${JSON.stringify(signed)}\n`);
    if (!values.json) {
      io.stdout(
        `  signed report: ${values.report} (check it: hallmark report check ${values.report} ${file} --trust ROOT.pem)\n`,
      );
    }
  }
  return EXIT_CODES[report.verdict] ?? 1;
}

/**
 * In one request when the file is small enough (nothing kept, one round trip), else as a job
 * (uploaded, kept `VERIFY_RETENTION_HOURS`): the verdict is the same either way.
 */
async function verifyEitherWay(client: HallmarkClient, file: string): Promise<VerifiedFile> {
  if ((await stat(file)).size <= IN_REQUEST_MAX_BYTES) {
    try {
      return await verifyImage(client, file);
    } catch (error) {
      if (!isProblem(error, problemTypes.payloadTooLarge)) throw error;
    }
  }
  return await verifyFile(client, file);
}
