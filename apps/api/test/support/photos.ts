import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const sharedFixtures = join(import.meta.dirname, '../../../../../shared/fixtures/c2pa');

/** A real JPEG photo with no provenance (third-party fixture, see shared/fixtures/c2pa). */
export const jpegPhoto = readFileSync(join(sharedFixtures, 'no_manifest.jpg'));
/** A small real PNG image. */
export const pngImage = readFileSync(join(sharedFixtures, 'libpng-test.png'));
