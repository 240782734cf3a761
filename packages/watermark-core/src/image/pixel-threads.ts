import sharp from 'sharp';

/**
 * How many threads libvips may use for each image operation in this process. A caller that runs
 * several images at once (the worker's lanes) gives each its share of the cores; by default
 * libvips would use every core for every image and the lanes would fight over them.
 */
export function setPixelThreads(threads: number): void {
  sharp.concurrency(Math.max(1, Math.floor(threads)));
}
