// `--trace FILE`: every detection of the evaluation as one JSON line, with what its search saw
// window by window (search-trace.ts), to calibrate a statistic against both the copies the
// detector reads and the unmarked images it must reject. Worker threads append whole lines.
import { appendFileSync } from 'node:fs';
import sharp from 'sharp';
import { traceDetection } from '../src/detect/detect.ts';
import { type Detection, detectMark, payloadToHex } from '../src/invisible.ts';

/** A detection; `fields` describe the image in the trace. */
export type Detector = (image: Uint8Array, fields: Record<string, unknown>) => Promise<Detection>;

/** detectMark, each call noted in `traceFile` when there is one. */
export function detector(traceFile: string | undefined, task: Record<string, unknown>): Detector {
  if (traceFile === undefined) return (image) => detectMark(image);
  return async (image, fields) => {
    const { detection, trace } = await traceDetection(image);
    const payload = detection.payload === null ? null : payloadToHex(detection.payload);
    const { width, height } = await sharp(image).metadata();
    const { windows, elapsed } = trace;
    const line = {
      ...task,
      ...fields,
      width,
      height,
      found: detection.found,
      payload,
      elapsed,
      windows,
    };
    appendFileSync(traceFile, `${JSON.stringify(line)}\n`);
    return detection;
  };
}
