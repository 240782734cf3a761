import type { Page } from 'playwright-core';

// The copies a person may be handed of a marked picture, made without an image library: the
// manifest cut out of the file's bytes, and a patch painted over the picture by the browser.

const APP11 = 0xeb;
const START_OF_SCAN = 0xda;

/**
 * The JPEG without its C2PA manifest store (the JUMBF boxes of its APP11 segments): the same
 * pixels, as a re-post that drops metadata leaves them.
 */
export function withoutManifest(jpeg: Uint8Array): Uint8Array {
  const kept: Uint8Array[] = [jpeg.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] ?? 0;
    if (marker === START_OF_SCAN) break;
    const length = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    if (marker !== APP11) kept.push(jpeg.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  kept.push(jpeg.subarray(at));
  return Buffer.concat(kept);
}

/**
 * The picture with a flat-coloured patch painted over a third of its width at its centre, encoded
 * again as a JPEG by the browser (which drops the manifest, as any editor that re-encodes does).
 */
export async function withPatch(page: Page, jpeg: Uint8Array): Promise<Uint8Array> {
  const encoded = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no 2d canvas');
    context.drawImage(bitmap, 0, 0);
    context.fillStyle = '#d4462c';
    context.fillRect(bitmap.width / 3, bitmap.height / 3, bitmap.width / 3, bitmap.height / 4);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    const out = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (const byte of out) binary += String.fromCharCode(byte);
    return btoa(binary);
  }, Buffer.from(jpeg).toString('base64'));
  return Buffer.from(encoded, 'base64');
}
