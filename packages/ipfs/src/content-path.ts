import { IpfsError } from './errors.ts';

/**
 * A UnixFS directory entry name, as both drivers and every gateway read it: one path segment,
 * not empty, not `.` or `..`, no `/` or NUL inside. Kept to what the name means in a URL path, so
 * `<gateway>/ipfs/<dirCid>/<name>` and `ipfs://<dirCid>/<name>` always reach the file.
 */
export function assertEntryName(name: string): string {
  if (name === '' || name === '.' || name === '..' || /[/\0]/.test(name) || name.length > 255) {
    throw new IpfsError('invalid_path', `not a file name: ${JSON.stringify(name.slice(0, 100))}`);
  }
  return name;
}

/**
 * A path under a CID as slash-separated entry names; leading, trailing and doubled slashes are
 * dropped (`/a//b/` is `a/b`). The empty string means the CID itself.
 */
export function normalizePath(path: string | undefined): string {
  if (path === undefined) return '';
  const segments = path.split('/').filter((segment) => segment !== '');
  return segments.map(assertEntryName).join('/');
}

/** The last entry name of a normalized path (`a/b.jpg` → `b.jpg`), or '' for the CID itself. */
export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A directory needs at least one file, each under a valid name used once. */
export function assertDirectoryEntries(entries: readonly { readonly name: string }[]): void {
  if (entries.length === 0)
    throw new IpfsError('invalid_path', 'a directory needs at least one file');
  const names = new Set<string>();
  for (const { name } of entries) {
    if (names.has(assertEntryName(name))) {
      throw new IpfsError('invalid_path', `file name used twice: ${JSON.stringify(name)}`);
    }
    names.add(name);
  }
}
