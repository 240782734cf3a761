import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const c2paFixtures = join(import.meta.dirname, '../../../../fixtures/c2pa');

/** A real JPEG photo with no provenance (third-party fixture, see fixtures/c2pa). */
export const jpegPhoto = readFileSync(join(c2paFixtures, 'no_manifest.jpg'));
/** A small real PNG image. */
export const pngImage = readFileSync(join(c2paFixtures, 'libpng-test.png'));
