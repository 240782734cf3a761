// Worker threads for pixel work (marking, reading a mark), shared by the worker (jobs) and the API
// (synchronous verification). A subpath of its own: only processes that do pixel work load piscina
// and the invisible engine.
export {
  PIXELS_BUSY,
  PixelPool,
  type PixelPoolLayout,
  pixelPoolLayout,
} from './pixel-pool.ts';
export type { CompareTask, EmbedTask, ReadTask } from './pixel-tasks.ts';
