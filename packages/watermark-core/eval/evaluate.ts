// The evaluation's work units, shared by the worker threads of `run.ts` and by the small in-process
// run of `pnpm test`: mark one photo and attack it every way, or check random edits of an
// unmarked photo for false detections.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { psnr, type RasterImage, ssim } from '../src/image/quality-metrics.ts';
import {
  type Detection,
  embedMark,
  ImageTooSmallError,
  payloadFromHex,
  payloadToHex,
} from '../src/invisible.ts';
import { attacks } from './attacks.ts';
import { secondGenerationAttacks } from './attacks-v2.ts';
import { deriveImage, seededRandom } from './derived-images.ts';
import { type Detector, detector } from './detection-trace.ts';

/**
 * The detector's answer on an attacked copy; a copy cut below the smallest side the detector
 * reads (a 10 % crop of a thumbnail) counts as a miss, as it would for a user.
 */
async function detectAttacked(
  detect: Detector,
  image: Uint8Array,
  fields: Record<string, unknown>,
): Promise<Detection> {
  try {
    return await detect(image, fields);
  } catch (error) {
    if (error instanceof ImageTooSmallError) return { found: false, payload: null, confidence: 0 };
    throw error;
  }
}

export const PHOTO_DIR = join(import.meta.dirname, '../../../fixtures/photos');

export interface PhotoTask {
  readonly kind: 'photo';
  /** Where each detection's search trace is appended (detection-trace.ts), if anywhere. */
  readonly traceFile?: string;
  readonly file: string;
  readonly payloadHex: string;
  readonly attackNames: readonly string[];
  readonly seed: number;
}

export interface FalseDetectionTask {
  readonly kind: 'false-detection';
  readonly traceFile?: string;
  readonly file: string;
  /** Random derivatives to check besides the unmarked original itself. */
  readonly derivatives: number;
  readonly seed: number;
}

export type EvalTask = PhotoTask | FalseDetectionTask;

export interface AttackOutcome {
  readonly attack: string;
  readonly recovered: boolean;
  readonly confidence: number;
}

export interface PhotoResult {
  readonly kind: 'photo';
  readonly file: string;
  readonly width: number;
  readonly height: number;
  readonly psnr: number;
  readonly ssim: number;
  readonly outcomes: readonly AttackOutcome[];
}

export interface FalseDetectionResult {
  readonly kind: 'false-detection';
  readonly file: string;
  readonly checked: number;
  /** Descriptions of the images where a mark was reported. */
  readonly falseDetections: readonly string[];
}

export type EvalResult = PhotoResult | FalseDetectionResult;

async function raster(image: Uint8Array): Promise<RasterImage> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export async function runTask(task: EvalTask): Promise<EvalResult> {
  const original = new Uint8Array(await readFile(join(PHOTO_DIR, task.file)));
  const detect = detector(task.traceFile, { kind: task.kind, file: task.file });
  if (task.kind === 'photo') {
    const payload = payloadFromHex(task.payloadHex);
    const marked = await embedMark(original, payload);
    const before = await raster(original);
    const after = await raster(marked.image);
    const outcomes: AttackOutcome[] = [];
    const known = [...attacks, ...secondGenerationAttacks];
    for (const attack of known.filter((a) => task.attackNames.includes(a.name))) {
      const copy = await attack.apply(marked.image, task.seed);
      const detection = await detectAttacked(detect, copy, {
        attack: attack.name,
        expected: task.payloadHex,
      });
      outcomes.push({
        attack: attack.name,
        recovered: detection.found && detection.payload === payload,
        confidence: detection.confidence,
      });
    }
    return {
      kind: 'photo',
      file: task.file,
      width: marked.width,
      height: marked.height,
      psnr: psnr(before, after),
      ssim: ssim(before, after),
      outcomes,
    };
  }
  const falseDetections: string[] = [];
  const check = async (description: string, image: Uint8Array) => {
    const detection = await detect(image, { description });
    if (detection.found)
      falseDetections.push(
        `${task.file}: ${description} -> ${payloadToHex(detection.payload as bigint)}`,
      );
  };
  await check('unmarked original', original);
  const { data, info } = await sharp(original).raw().toBuffer({ resolveWithObject: true });
  const raw = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  const random = seededRandom(task.seed);
  for (let i = 0; i < task.derivatives; i++) {
    const derived = await deriveImage(raw, random);
    await check(derived.description, derived.image);
  }
  return {
    kind: 'false-detection',
    file: task.file,
    checked: task.derivatives + 1,
    falseDetections,
  };
}
