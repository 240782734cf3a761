import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { detectMark, payloadToHex } from '@hallmark/watermark-core';
import { type Command, UsageError } from '../io.ts';

/** Prints the payload of an invisible mark in hex, or says none was found (exit code 1). */
export const detect: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0) throw new UsageError('expected one input file');
  const detection = await detectMark(new Uint8Array(await readFile(input)));
  const payload = detection.payload === null ? null : payloadToHex(detection.payload);
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ found: detection.found, payload, confidence: detection.confidence })}\n`,
    );
  } else if (payload !== null) {
    io.stdout(`${payload}\n`);
  } else {
    io.stdout('no invisible mark found\n');
  }
  return detection.found ? 0 : 1;
};
