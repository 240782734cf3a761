// A C2PA manifest store is a JUMBF superbox (ISO/IEC 19566-5) labelled `c2pa` whose child
// superboxes are the manifests, oldest first: the last is the active manifest. This reads just
// the labels, enough to name a stored store by its active manifest without validating it again.

const JUMB = 0x6a756d62; // 'jumb'
const JUMD = 0x6a756d64; // 'jumd'
/** jumd toggles bit 1: a null-terminated label follows the 16-byte type and the toggles. */
const LABEL_PRESENT = 0x02;

interface Box {
  readonly type: number;
  /** Where the box starts, header included. */
  readonly offset: number;
  /** Where the box's content starts and ends in the buffer. */
  readonly start: number;
  readonly end: number;
}

function* boxes(bytes: Uint8Array, start: number, end: number): Generator<Box> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = view.getUint32(offset + 4);
    let header = 8;
    if (size === 1) {
      // A 64-bit size follows; stores this large do not exist in practice.
      if (offset + 16 > end) return;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) return;
    yield { type, offset, start: offset + header, end: offset + size };
    offset += size;
  }
}

/** The label of a superbox: its first child is the `jumd` description box. */
function labelOf(bytes: Uint8Array, superbox: Box): string | null {
  const [description] = boxes(bytes, superbox.start, superbox.end);
  if (description === undefined || description.type !== JUMD) return null;
  const toggles = bytes[description.start + 16];
  if (toggles === undefined || (toggles & LABEL_PRESENT) === 0) return null;
  const from = description.start + 17;
  let to = from;
  while (to < description.end && bytes[to] !== 0) to += 1;
  return new TextDecoder().decode(bytes.subarray(from, to));
}

/**
 * The labels of the manifests in a C2PA manifest store (a `.c2pa` sidecar), oldest first: the
 * last is the active manifest's. Empty when the bytes are not a manifest store.
 */
export function manifestLabelsOf(store: Uint8Array): string[] {
  const [root] = boxes(store, 0, store.length);
  if (root === undefined || root.type !== JUMB || labelOf(store, root) !== 'c2pa') return [];
  const labels: string[] = [];
  for (const child of boxes(store, root.start, root.end)) {
    if (child.type !== JUMB) continue;
    const label = labelOf(store, child);
    if (label !== null) labels.push(label);
  }
  return labels;
}

/**
 * The store reduced to its active manifest (the last): the `c2pa` superbox with its description
 * box and that manifest alone, for `GET /manifests/{id}?returnActiveManifest=true`. Null when the
 * bytes are not a manifest store.
 */
export function activeManifestOnly(store: Uint8Array): Uint8Array | null {
  const [root] = boxes(store, 0, store.length);
  if (root === undefined || root.type !== JUMB || labelOf(store, root) !== 'c2pa') return null;
  const children = [...boxes(store, root.start, root.end)];
  const description = children[0];
  const active = children.filter((child) => child.type === JUMB).at(-1);
  if (description === undefined || description.type !== JUMD || active === undefined) return null;
  const parts = [description, active].map((box) => store.subarray(box.offset, box.end));
  const size = 8 + parts.reduce((total, part) => total + part.length, 0);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, size);
  new DataView(out.buffer).setUint32(4, JUMB);
  let offset = 8;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
