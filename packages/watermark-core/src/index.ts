// The public surface of watermark-core: the invisible mark and C2PA provenance. Each technique
// lives in its own folder with its own index; nothing outside this package touches pixels or
// manifests.
export * from './c2pa/index.ts';
export * from './invisible/index.ts';
export { setPixelThreads } from './pixel-threads.ts';
