/**
 * Content types the gateway gives files, by file-name extension. Deliberately short: the gateway
 * answers from the API's own origin, so types a browser would run (HTML, SVG, JavaScript) are
 * never named and fall back to `application/octet-stream`, which with `nosniff` only downloads.
 */
const CONTENT_TYPES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    webp: 'image/webp',
    avif: 'image/avif',
    gif: 'image/gif',
    tif: 'image/tiff',
    tiff: 'image/tiff',
    json: 'application/json',
    txt: 'text/plain; charset=utf-8',
  }),
);

export function contentTypeOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  return CONTENT_TYPES.get(extension) ?? 'application/octet-stream';
}
