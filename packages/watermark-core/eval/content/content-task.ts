// One photo's share of the content evaluation: mark it, keep its reference, then verify its honest
// copies, transplants of its mark and local edits of it the way the service does (read the mark,
// compare the content in the original's frame), and return what each was judged.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentComparison, ContentState, Region } from '../../src/content/index.ts';
import { compareContent, makeContentReference } from '../../src/content/index.ts';
import {
  type Detection,
  detectMark,
  embedMark,
  ImageTooSmallError,
  payloadFromHex,
} from '../../src/invisible.ts';
import { seededRandom } from '../derived-images.ts';
import { caught } from './content-report.ts';
import { EDIT_KINDS, iou, localEdit, transplant } from './forgeries.ts';
import { HONEST_FAMILIES } from './honest-copies.ts';

export const PHOTO_DIR = join(import.meta.dirname, '../../../../fixtures/photos');
const MAX_PIXELS = 50_000_000;

export interface ContentTask {
  readonly file: string;
  /** Other photos of the set: hosts for transplants and sources of pasted patches. */
  readonly others: readonly string[];
  readonly seed: number;
  readonly honestPerFamily: number;
  readonly families: readonly string[];
  readonly transplants: number;
  readonly editsPerKind: number;
}

export type CaseKind = 'honest' | 'transplant' | 'edit';

export interface CaseOutcome {
  readonly photo: string;
  readonly kind: CaseKind;
  readonly family: string;
  readonly description: string;
  /** null when the mark was not read (no content check happens then). */
  readonly state: ContentState | null;
  readonly coverage: number | null;
  /** Edits: the edited area's share of the picture, and the best IoU of a region with it. */
  readonly editShare?: number;
  readonly iou?: number;
  /** Edits: the edit's true box and the regions reported, in the copy's pixels. */
  readonly truth?: Region | null;
  readonly regions?: readonly Region[];
  readonly measures?: ContentComparison['measures'];
  readonly millis: number;
}

/** Edit sizes, as shares of the picture: each edit draws from one band in turn. */
const EDIT_BANDS: readonly [number, number][] = [
  [0.01, 0.02],
  [0.02, 0.05],
  [0.05, 0.1],
  [0.1, 0.25],
];

export async function runContentTask(task: ContentTask): Promise<CaseOutcome[]> {
  const random = seededRandom(task.seed);
  const original = new Uint8Array(await readFile(join(PHOTO_DIR, task.file)));
  const payload = payloadFromHex(
    ((BigInt(task.seed) * 0x9e3779b97f4a7c15n) & 0xffff_ffff_ffff_ffffn)
      .toString(16)
      .padStart(16, '0'),
  );
  const marked = await embedMark(original, payload);
  const reference = await makeContentReference(marked.image, MAX_PIXELS);
  const size = { width: marked.width, height: marked.height };
  const otherPhoto = async () =>
    new Uint8Array(
      await readFile(
        join(PHOTO_DIR, task.others[Math.floor(random() * task.others.length)] as string),
      ),
    );

  const outcomes: CaseOutcome[] = [];
  const verify = async (
    image: Uint8Array,
    meta: { kind: CaseKind; family: string; description: string },
    truth?: { box: { x: number; y: number; width: number; height: number } | null; share: number },
  ) => {
    const started = performance.now();
    let detection: Detection;
    try {
      detection = await detectMark(image, { maxPixels: MAX_PIXELS });
    } catch (error) {
      if (!(error instanceof ImageTooSmallError)) throw error;
      detection = { found: false, payload: null, confidence: 0 };
    }
    const read =
      detection.found && detection.payload === payload && detection.geometry !== undefined;
    const comparison =
      read && detection.geometry !== undefined
        ? await compareContent(image, {
            reference,
            original: size,
            geometry: detection.geometry,
            maxPixels: MAX_PIXELS,
          })
        : null;
    const outcome: CaseOutcome = {
      photo: task.file,
      ...meta,
      state: comparison?.state ?? null,
      coverage: comparison?.coverage ?? null,
      ...(comparison?.measures === undefined ? {} : { measures: comparison.measures }),
      millis: Math.round(performance.now() - started),
      ...(truth === undefined
        ? {}
        : {
            editShare: truth.share,
            truth: truth.box,
            regions: comparison?.regions ?? [],
            iou:
              truth.box === null || comparison === null
                ? 0
                : bestIou(truth.box, comparison.regions),
          }),
    };
    outcomes.push(outcome);
    // For working on a failure: the copies judged wrongly, with the marked output they came from.
    const keep = process.env.CONTENT_EVAL_KEEP;
    const wrong =
      (meta.kind === 'honest' && (outcome.state === 'edited' || outcome.state === 'differs')) ||
      (meta.kind === 'transplant' && outcome.state !== null && outcome.state !== 'differs') ||
      (meta.kind === 'edit' && (truth?.share ?? 0) >= 0.02 && !caught(outcome));
    if (keep !== undefined && wrong) {
      const name = `${task.file}-${meta.description}-${outcomes.length}`.replace(/[^\w.-]+/g, '_');
      await writeFile(join(keep, `${name}.png`), image);
      await writeFile(join(keep, `${task.file}-marked`), marked.image);
    }
  };

  for (const family of task.families) {
    const make = HONEST_FAMILIES[family];
    if (make === undefined) throw new Error(`no honest family ${family}`);
    for (let k = 0; k < task.honestPerFamily; k++) {
      const copy = await make(marked.image, random);
      await verify(copy.image, { kind: 'honest', family, description: copy.description });
    }
  }
  for (let k = 0; k < task.transplants; k++) {
    // One in four is a second shot of the same scene, the rest other photos.
    const other = k % 4 === 3 ? null : await otherPhoto();
    const forged = await transplant(marked.image, original, other, random);
    await verify(forged.image, {
      kind: 'transplant',
      family: forged.kind,
      description: forged.description,
    });
  }
  let band = Math.floor(random() * EDIT_BANDS.length);
  for (const kind of EDIT_KINDS) {
    for (let k = 0; k < task.editsPerKind; k++) {
      const [low, high] = EDIT_BANDS[band++ % EDIT_BANDS.length] as [number, number];
      const share = low + (high - low) * random();
      const edit = await localEdit(marked.image, kind, share, await otherPhoto(), random);
      await verify(
        edit.image,
        { kind: 'edit', family: kind, description: edit.description },
        {
          box: edit.truth,
          share:
            edit.truth === null
              ? 0
              : (edit.truth.width * edit.truth.height) / (size.width * size.height),
        },
      );
    }
  }
  return outcomes;
}

/** The best IoU with the truth of any one region, or of the box around all regions. */
function bestIou(
  truth: { x: number; y: number; width: number; height: number },
  regions: readonly Region[],
): number {
  if (regions.length === 0) return 0;
  const x0 = Math.min(...regions.map((r) => r.x));
  const y0 = Math.min(...regions.map((r) => r.y));
  const x1 = Math.max(...regions.map((r) => r.x + r.width));
  const y1 = Math.max(...regions.map((r) => r.y + r.height));
  const union = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  return Math.max(iou(truth, union), ...regions.map((r) => iou(truth, r)));
}
