import { basename, dirname, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  HallmarkClient,
  KNOWN_EXTENSIONS,
  UnknownContentTypeError,
  type WatermarkOptions,
  type WatermarkProgress,
  watermarkFile,
} from '@hallmark/sdk';
import { apiBaseUrl } from '../environment.ts';
import { type CliIo, UsageError } from '../io.ts';
import { watermarkMany } from './watermark-many.ts';

/**
 * What the command needs beyond `CliIo`: whether stderr is a terminal, so progress can redraw
 * a single line there. Optional: without it, progress is written as plain lines.
 */
export interface WatermarkIo extends CliIo {
  readonly stderrIsTty?: boolean;
}

const argsSpec = {
  invisible: { type: 'boolean', default: false },
  c2pa: { type: 'boolean', default: false },
  author: { type: 'string' },
  copyright: { type: 'string' },
  description: { type: 'string' },
  license: { type: 'string' },
  created: { type: 'string' },
  ipfs: { type: 'boolean', default: false },
  nft: { type: 'boolean', default: false },
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
  url: { type: 'string' },
} as const;

type WatermarkArgs = ReturnType<typeof parseArgs<{ options: typeof argsSpec }>>['values'];

/**
 * Uploads one image, has the server watermark it, and saves the result beside it (or at
 * `--out`). Prints the output path, or the finished job with `--json`; a failed job is reported
 * as `code: message` on stderr with exit code 1.
 */
export async function watermark(args: string[], io: WatermarkIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: argsSpec, allowPositionals: true });
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError('expected a file to watermark');
  if (extra.length > 0 && values.out !== undefined) {
    throw new UsageError(
      '--out names one output: with several files each is saved beside its file',
    );
  }
  const token = io.env.HALLMARK_API_KEY;
  if (!token) throw new UsageError('HALLMARK_API_KEY is not set: export the API key to use');
  const options = watermarkOptions(values);
  const client = new HallmarkClient({
    baseUrl: values.url ?? apiBaseUrl(io.env),
    token,
  });
  if (extra.length > 0) {
    return watermarkMany(client, positionals, options, besideInput, values.json, io);
  }
  const output = values.out ?? besideInput(file);

  const progress = new ProgressDisplay(io, basename(file));
  try {
    const result = await watermarkFile(client, file, options, {
      onProgress: (event) => progress.show(event),
    });
    progress.note(`downloading to ${output}`);
    await result.downloadTo(output);
    progress.end();
    io.stdout(values.json ? `${JSON.stringify(result.job, null, 2)}\n` : `${output}\n`);
    return 0;
  } catch (error) {
    progress.end();
    if (error instanceof UnknownContentTypeError) {
      throw new UsageError(
        `cannot tell the type of ${file} by its name: expected one of ${KNOWN_EXTENSIONS.map((extension) => `.${extension}`).join(', ')}`,
      );
    }
    throw error;
  }
}

/** The spec recommends both techniques, so naming neither asks for both. */
function watermarkOptions(values: WatermarkArgs): WatermarkOptions {
  const watermarkType: WatermarkOptions['watermarkType'] = [];
  if (values.invisible || !values.c2pa) watermarkType.push('invisible');
  if (values.c2pa || !values.invisible) watermarkType.push('c2pa');
  if (values.created !== undefined && !isCalendarDate(values.created)) {
    throw new UsageError(`--created must be a date YYYY-MM-DD, got "${values.created}"`);
  }
  const data = withoutUndefined({
    author: values.author,
    copyright: values.copyright,
    description: values.description,
    licenseType: values.license,
    creationDate: values.created,
  });
  return {
    watermarkType,
    ...(Object.keys(data).length > 0 ? { data } : {}),
    ...(values.ipfs ? { storeIpfs: true } : {}),
    ...(values.nft ? { mintNft: true } : {}),
  };
}

/** `2025-02-30` has the right shape but is no date; the server would refuse it. */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function withoutUndefined(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** `photos/sunset.jpg` becomes `photos/sunset.watermarked.jpg`. */
function besideInput(file: string): string {
  const extension = extname(file);
  return join(dirname(file), `${basename(file, extension)}.watermarked${extension}`);
}

/**
 * Progress on stderr, so stdout carries only the result. On a terminal one line is redrawn in
 * place (with the seconds spent waiting); elsewhere (logs, CI) each step is one plain line, and
 * polls are reported only when the job's status changes.
 */
class ProgressDisplay {
  readonly #io: WatermarkIo;
  readonly #fileName: string;
  #lineOpen = false;
  #lastStatus: string | undefined;

  constructor(io: WatermarkIo, fileName: string) {
    this.#io = io;
    this.#fileName = fileName;
  }

  show(event: WatermarkProgress): void {
    switch (event.phase) {
      case 'uploading':
        this.note(`uploading ${this.#fileName} (${formatBytes(event.bytes)})`);
        break;
      case 'uploaded':
        this.note(`uploaded as file ${event.fileId}`);
        break;
      case 'queued':
        this.note(`queued as request ${event.requestId}`);
        break;
      case 'processing':
        this.#showPoll(event.status, event.elapsedMs);
        break;
      case 'done':
        this.note('watermarked');
        break;
    }
  }

  #showPoll(status: string, elapsedMs: number): void {
    const changed = status !== this.#lastStatus;
    this.#lastStatus = status;
    if (this.#io.stderrIsTty) {
      this.note(`${status} ${Math.floor(elapsedMs / 1000)} s`);
    } else if (changed) {
      this.note(status);
    }
  }

  note(text: string): void {
    if (this.#io.stderrIsTty) {
      // Carriage return and "erase line": the next state replaces the previous one.
      this.#io.stderr(`\r\x1b[2K${text}`);
      this.#lineOpen = true;
    } else {
      this.#io.stderr(`${text}\n`);
    }
  }

  /** Ends the redrawn line so that whatever is written next starts on a line of its own. */
  end(): void {
    if (this.#lineOpen) this.#io.stderr('\n');
    this.#lineOpen = false;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
