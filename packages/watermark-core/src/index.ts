// The public surface of watermark-core: the invisible mark, C2PA provenance, the content
// comparison, the perceptual fingerprint and the video mark; nothing outside this package touches
// pixels or manifests. The invisible mark alone is also `@hallmark/watermark-core/invisible`, for
// threads that do pixel work and should not load C2PA (see invisible.ts). The folders are listed
// in README.md#layout.
export * from './c2pa/index.ts';
export * from './content/index.ts';
export * from './fingerprint/index.ts';
export * from './invisible.ts';
export * from './video/index.ts';
