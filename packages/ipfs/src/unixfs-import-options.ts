/**
 * How files become UnixFS, the same for both drivers so that a file gets the same CID whichever
 * node stored it: the IPIP-499 `unixfs-v1-2025` profile (CIDv1, raw leaves, sha2-256, 1 MiB
 * fixed-size chunks). A file up to 1 MiB is then a single raw block: its CID is simply
 * `CIDv1(raw, sha2-256(bytes))`.
 */
export const UNIXFS_IMPORT_OPTIONS = {
  profile: 'unixfs-v1-2025',
  cidVersion: 1,
  rawLeaves: true,
} as const;

/**
 * The same profile as Kubo `add` parameters. Kubo's balanced layout keeps its default of 174
 * links per node where the profile says 1024, so only files over 174 MiB get different CIDs.
 */
export const KUBO_ADD_PARAMS = {
  'cid-version': '1',
  'raw-leaves': 'true',
  hash: 'sha2-256',
  chunker: 'size-1048576',
} as const;
