import { createLogger, exitGracefullyOnSignals, loadConfigOrExit } from '@hallmark/platform';
import { createApp } from './create-app.ts';

const config = loadConfigOrExit();
const logger = createLogger('api', config);
const app = await createApp(config, logger);
await app.listen(config.PORT, config.HOST);
logger.info({ url: await app.getUrl() }, 'api listening');
exitGracefullyOnSignals(app, logger, config.SHUTDOWN_TIMEOUT_MS);
