// Container entry for "migrate, then exit" (infra/compose.yaml runs it before api and worker):
// the same migrations `pnpm db:migrate` applies, from the built image, with JSON logs.

import { createLogger, loadConfigOrExit } from '@hallmark/config';
import { applyMigrations, ensureDatabase } from '@hallmark/db';

const config = loadConfigOrExit();
const logger = createLogger('migrate', config);
const { created } = await ensureDatabase(config.DATABASE_URL);
const applied = await applyMigrations(config.DATABASE_URL);
logger.info(
  { created, applied },
  applied.length > 0 ? 'migrations applied' : 'database up to date',
);
