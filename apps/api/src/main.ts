import { createLogger, loadConfigOrExit, runService } from '@hallmark/platform';
import { createApp } from './create-app.ts';

const config = loadConfigOrExit();
const logger = createLogger('api', config);
await runService(
  logger,
  async () => {
    const app = await createApp(config, logger);
    await app.listen(config.PORT, config.HOST);
    logger.info({ url: await app.getUrl() }, 'api listening');
    return app;
  },
  config.SHUTDOWN_TIMEOUT_MS,
);
