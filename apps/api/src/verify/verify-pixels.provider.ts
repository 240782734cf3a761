import { availableParallelism } from 'node:os';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CONFIG, LOGGER } from '@hallmark/runtime';
import { PixelPool, pixelPoolLayout } from '@hallmark/runtime/pixels';
import type { Provider } from '@nestjs/common';

/**
 * One pixel thread per API process for the verifications answered in the request (`POST
 * /verify/file`, `POST /matches/byContent`): the detector needs up to a second on a large unmarked
 * file, and on the event loop that second would stall every other request of the process (status
 * polls included). Two reads share the thread (each alternates its JavaScript with libvips' own
 * threads); VERIFY_SYNC_QUEUE more wait their turn, and beyond them a read is refused.
 */
export const verifyPixelsProvider: Provider = {
  provide: PixelPool,
  inject: [CONFIG, LOGGER],
  useFactory: (config: HallmarkConfig, logger: Logger) =>
    new PixelPool(pixelPoolLayout(2, availableParallelism(), 1), logger, config.VERIFY_SYNC_QUEUE),
};
