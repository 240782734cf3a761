import { writeFile } from 'node:fs/promises';
import {
  downloadFile,
  type HallmarkClient,
  type WatermarkFilesProgress,
  type WatermarkOptions,
  watermarkFiles,
} from '@hallmark/sdk';
import type { CliIo } from '../io.ts';

const BAR_WIDTH = 24;

/**
 * Many files in batches (`POST /watermark/batches`), with one progress bar for all of them; each
 * result is saved beside its input. Prints one output path per success on stdout (or every item
 * with `--json`), each failure as `file: code: message` on stderr; exit 1 when any failed.
 */
export async function watermarkMany(
  client: HallmarkClient,
  files: readonly string[],
  options: WatermarkOptions,
  outputOf: (file: string) => string,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const bar = new ProgressBar(io);
  const result = await watermarkFiles(client, files, options, {
    onProgress: (progress) => bar.show(progress),
  });
  bar.end();
  const report: Array<Record<string, string>> = [];
  let failures = 0;
  for (const item of result.items) {
    const file = String(item.input);
    const job = await client.getWatermarkJob(item.requestId);
    if (job.status === 'success' && job.watermarkedUrl !== undefined) {
      const output = outputOf(file);
      await writeFile(output, await downloadFile(job.watermarkedUrl));
      report.push({ file, requestId: item.requestId, status: 'success', output });
      if (!json) io.stdout(`${output}\n`);
    } else {
      failures += 1;
      const reason =
        job.error === undefined ? job.status : `${job.error.code}: ${job.error.message}`;
      report.push({ file, requestId: item.requestId, status: 'failed', error: reason });
      io.stderr(`${file}: ${reason}\n`);
    }
  }
  if (json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return failures === 0 ? 0 : 1;
}

/**
 * `[########----------------] 12/20 done, 1 failed`: redrawn in place on a terminal; elsewhere
 * one line each time the count of finished files changes.
 */
class ProgressBar {
  readonly #io: CliIo;
  #last = '';
  #open = false;

  constructor(io: CliIo) {
    this.#io = io;
  }

  show(progress: WatermarkFilesProgress): void {
    const phase = progress.uploaded < progress.total ? progress.uploaded : progress.done;
    const filled = Math.round((phase / Math.max(1, progress.total)) * BAR_WIDTH);
    const what =
      progress.uploaded < progress.total
        ? `${progress.uploaded}/${progress.total} uploaded`
        : `${progress.done}/${progress.total} done${progress.failed > 0 ? `, ${progress.failed} failed` : ''}`;
    const line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${what}`;
    if (line === this.#last) return;
    this.#last = line;
    if (this.#io.stderrIsTty) {
      this.#io.stderr(`\r\x1b[2K${line}`);
      this.#open = true;
    } else {
      this.#io.stderr(`${line}\n`);
    }
  }

  end(): void {
    if (this.#open) this.#io.stderr('\n');
    this.#open = false;
  }
}
