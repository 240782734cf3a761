// The public surface of watermark-core: the invisible mark, C2PA provenance and the perceptual
// fingerprint. Each technique
// lives in its own folder with its own index; nothing outside this package touches pixels or
// manifests. The invisible mark alone is also `@hallmark/watermark-core/invisible`, for threads
// that do pixel work and should not load C2PA (see src/invisible/index.ts).
export * from './c2pa/index.ts';
export * from './content/index.ts';
export * from './fingerprint/index.ts';
export * from './invisible/index.ts';
