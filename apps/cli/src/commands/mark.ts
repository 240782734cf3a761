import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import {
  embedMark,
  type ImageFormat,
  payloadFromHex,
  payloadToHex,
} from '@hallmark/watermark-core';
import { type Command, UsageError } from '../io.ts';

const FORMATS_BY_EXTENSION: Record<string, ImageFormat> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.webp': 'webp',
  '.avif': 'avif',
  '.tif': 'tiff',
  '.tiff': 'tiff',
};

/** Adds an invisible mark carrying a 64-bit payload; the output format follows `out`'s extension. */
export const mark: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { payload: { type: 'string' }, quality: { type: 'string' } },
  });
  const [input, output, ...extra] = positionals;
  if (input === undefined || output === undefined || extra.length > 0) {
    throw new UsageError('expected an input and an output file');
  }
  if (values.payload === undefined) throw new UsageError('--payload is required');
  let payload: bigint;
  try {
    payload = payloadFromHex(values.payload);
  } catch {
    throw new UsageError(`--payload must be exactly 16 hex digits, got "${values.payload}"`);
  }
  const format = FORMATS_BY_EXTENSION[extname(output).toLowerCase()];
  if (format === undefined) {
    throw new UsageError(
      `cannot tell the output format from "${output}" (use .jpg, .png, .webp, .avif or .tiff)`,
    );
  }
  let quality: number | undefined;
  if (values.quality !== undefined) {
    quality = Number(values.quality);
    if (!Number.isInteger(quality) || quality < 1 || quality > 100) {
      throw new UsageError('--quality must be an integer from 1 to 100');
    }
  }
  const marked = await embedMark(new Uint8Array(await readFile(input)), payload, {
    format,
    ...(quality === undefined ? {} : { quality }),
  });
  await writeFile(output, marked.image);
  io.stdout(
    `${output}: ${marked.format} ${marked.width}x${marked.height}, payload ${payloadToHex(payload)}\n`,
  );
  return 0;
};
