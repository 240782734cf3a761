// An independent reading of a manifest store for the crJSON tests: the bytes under each assertion
// label, found by walking the boxes with nothing from src/, so that hashes the report states can
// be checked against the store itself.

/** Each assertion superbox's bytes without its 8-byte header, by manifest label and assertion label. */
export function assertionBodies(store: Uint8Array): Map<string, Map<string, Uint8Array>> {
  const out = new Map<string, Map<string, Uint8Array>>();
  const buffer = Buffer.from(store.buffer, store.byteOffset, store.length);
  const children = (start: number, end: number) => {
    const boxes: { type: string; start: number; end: number }[] = [];
    for (let at = start; at < end; ) {
      const size = buffer.readUInt32BE(at);
      boxes.push({
        type: buffer.toString('latin1', at + 4, at + 8),
        start: at + 8,
        end: at + size,
      });
      at += size;
    }
    return boxes;
  };
  const label = (box: { start: number }) => {
    const from = box.start + 8 + 16 + 1; // jumd header, type, toggles
    return buffer.toString('utf8', from, buffer.indexOf(0, from));
  };
  const [root] = children(0, buffer.length);
  if (root === undefined) return out;
  for (const manifest of children(root.start, root.end).filter((box) => box.type === 'jumb')) {
    const assertions = new Map<string, Uint8Array>();
    const parts = children(manifest.start, manifest.end).filter((box) => box.type === 'jumb');
    const store = parts.find((part) => label(part) === 'c2pa.assertions');
    for (const assertion of store ? children(store.start, store.end) : []) {
      if (assertion.type === 'jumb') {
        assertions.set(label(assertion), buffer.subarray(assertion.start, assertion.end));
      }
    }
    out.set(label(manifest), assertions);
  }
  return out;
}
