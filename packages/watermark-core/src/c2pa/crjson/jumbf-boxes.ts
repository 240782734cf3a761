// JUMBF (ISO/IEC 19566-5) as C2PA uses it: a superbox `jumb` opens with a description box `jumd`
// (a 16-byte content type, toggles, an optional label) followed by content boxes or superboxes.
// The walk is bounded so that a crafted store costs at most a few passes over its own bytes.
import { slice, uint8 } from './bytes.ts';
import { MalformedManifestStoreError } from './errors.ts';
import { type IsoBox, isoBoxes } from './iso-boxes.ts';

/** Superboxes inside superboxes: a store nests five deep (store, manifest, assertions, ...). */
const MAX_DEPTH = 12;
/** Boxes in one store: a real one holds tens; this only stops a store of millions of empty boxes. */
const MAX_BOXES = 100_000;
const MAX_LABEL_BYTES = 1024;

/** jumd toggles: bit 1 a label follows the type, bit 2 a 4-byte ID, bit 3 a 32-byte signature. */
const LABEL_PRESENT = 0x02;
const ID_PRESENT = 0x04;
const SIGNATURE_PRESENT = 0x08;

export interface ContentBox {
  readonly kind: 'content';
  readonly type: string;
  readonly payload: Uint8Array;
}

export interface Superbox {
  readonly kind: 'superbox';
  /** The description's content type as 32 hex digits, e.g. `63626f72...` for CBOR. */
  readonly contentType: string;
  readonly label: string | null;
  /** The superbox without its own 8- or 16-byte header: the bytes a hashed URI covers. */
  readonly body: Uint8Array;
  readonly children: readonly (Superbox | ContentBox)[];
}

interface Budget {
  boxes: number;
}

/** The one superbox `bytes` holds; throws MalformedManifestStoreError for anything else. */
export function readSuperbox(bytes: Uint8Array): Superbox {
  const budget: Budget = { boxes: MAX_BOXES };
  const [root, ...rest] = boxesIn(bytes, 0, budget);
  if (root === undefined || root.type !== 'jumb' || rest.length > 0) {
    throw new MalformedManifestStoreError('the store is not a single JUMBF superbox');
  }
  return superbox(root.payload, 1, budget);
}

function boxesIn(bytes: Uint8Array, depth: number, budget: Budget): IsoBox[] {
  if (depth > MAX_DEPTH) throw new MalformedManifestStoreError('superboxes nest too deeply');
  const boxes: IsoBox[] = [];
  for (const box of isoBoxes(bytes)) {
    budget.boxes -= 1;
    if (budget.boxes < 0) throw new MalformedManifestStoreError('too many boxes');
    boxes.push(box);
  }
  return boxes;
}

function superbox(body: Uint8Array, depth: number, budget: Budget): Superbox {
  const [description, ...rest] = boxesIn(body, depth, budget);
  if (description === undefined || description.type !== 'jumd') {
    throw new MalformedManifestStoreError('a superbox does not open with its description box');
  }
  const { contentType, label } = describe(description.payload);
  const children = rest.map((box): Superbox | ContentBox =>
    box.type === 'jumb'
      ? superbox(box.payload, depth + 1, budget)
      : { kind: 'content', type: box.type, payload: box.payload },
  );
  return { kind: 'superbox', contentType, label, body, children };
}

function describe(payload: Uint8Array): { contentType: string; label: string | null } {
  const contentType = Buffer.from(slice(payload, 0, 16, 'a description box')).toString('hex');
  const toggles = uint8(payload, 16, 'a description box');
  if ((toggles & LABEL_PRESENT) === 0) return { contentType, label: null };
  const end = payload.indexOf(0, 17);
  if (end === -1 || end - 17 > MAX_LABEL_BYTES) {
    throw new MalformedManifestStoreError('a box label is unterminated or too long');
  }
  // The ID and signature, when present, must fit after the label; their values are not used.
  const after = end + 1 + ((toggles & ID_PRESENT) === 0 ? 0 : 4);
  slice(payload, after, (toggles & SIGNATURE_PRESENT) === 0 ? 0 : 32, 'a description box');
  let label: string;
  try {
    label = new TextDecoder('utf-8', { fatal: true }).decode(payload.subarray(17, end));
  } catch (error) {
    throw new MalformedManifestStoreError('a box label is not UTF-8', { cause: error });
  }
  return { contentType, label };
}
