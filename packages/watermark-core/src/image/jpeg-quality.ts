// Estimates the quality setting a JPEG was saved with, so a marked copy is re-encoded at the same
// quality: the luminance quantisation table is compared with the IJG reference table scaled for
// every quality from 1 to 100 (the scaling used by libjpeg, libjpeg-turbo, mozjpeg and most
// cameras' software), and the closest match wins.

// JPEG standard Annex K luminance table, in zigzag order (the order of DQT segments).
const BASE_LUMINANCE_ZIGZAG = [
  16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37,
  29, 40, 58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87,
  95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
];

function scaledTable(quality: number): number[] {
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  return BASE_LUMINANCE_ZIGZAG.map((q) =>
    Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100))),
  );
}

const referenceTables = Array.from({ length: 100 }, (_, i) => scaledTable(i + 1));

/** The luminance table (table 0) of a JPEG in zigzag order, or null when there is none. */
function luminanceTable(jpeg: Uint8Array): number[] | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let pos = 2;
  while (pos + 4 <= jpeg.length) {
    if (jpeg[pos] !== 0xff) return null;
    const marker = jpeg[pos + 1] as number;
    if (
      marker === 0xd8 ||
      (marker >= 0xd0 && marker <= 0xd7) ||
      marker === 0x01 ||
      marker === 0xff
    ) {
      pos += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    const length = ((jpeg[pos + 2] as number) << 8) | (jpeg[pos + 3] as number);
    if (marker === 0xdb) {
      let p = pos + 4;
      const end = pos + 2 + length;
      while (p < end) {
        const precision = (jpeg[p] as number) >> 4;
        const id = (jpeg[p] as number) & 0x0f;
        const size = precision ? 128 : 64;
        if (id === 0) {
          const table: number[] = [];
          for (let i = 0; i < 64; i++) {
            table.push(
              precision
                ? ((jpeg[p + 1 + 2 * i] as number) << 8) | (jpeg[p + 2 + 2 * i] as number)
                : (jpeg[p + 1 + i] as number),
            );
          }
          return table;
        }
        p += 1 + size;
      }
    }
    pos += 2 + length;
  }
  return null;
}

/** Estimated IJG quality (1-100) of a JPEG, or undefined when it has no luminance table. */
export function estimateJpegQuality(jpeg: Uint8Array): number | undefined {
  const table = luminanceTable(jpeg);
  if (table === null) return undefined;
  let best = 90;
  let bestError = Infinity;
  referenceTables.forEach((reference, i) => {
    let error = 0;
    for (let k = 0; k < 64; k++) error += Math.abs((reference[k] as number) - (table[k] as number));
    if (error <= bestError) {
      bestError = error;
      best = i + 1;
    }
  });
  return best;
}
