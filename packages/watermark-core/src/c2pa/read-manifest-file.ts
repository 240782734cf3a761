// readManifestFile: readManifest for a file on disk. c2pa-node reads it through its own buffered
// file stream, so validating a 2 GB video's hard binding never holds the video in memory.
import { openAsset } from './asset-reader.ts';
import { readerSettings } from './c2pa-settings.ts';
import { detectC2paFormatOfFile } from './file-format.ts';
import { mimeTypeOf } from './formats.ts';
import type { ManifestSummary } from './manifest-summary.ts';
import { type ReadManifestOptions, summarise } from './read-manifest.ts';

/**
 * @throws UnsupportedFormatError when the file is not a supported container, naming what it is
 * @throws UnreadableImageError when the container itself does not parse
 */
export async function readManifestFile(
  path: string,
  options: ReadManifestOptions = {},
): Promise<ManifestSummary> {
  const format = await detectC2paFormatOfFile(path);
  const opened = await openAsset({ path, mimeType: mimeTypeOf(format) }, readerSettings(options));
  return summarise(opened, format);
}
