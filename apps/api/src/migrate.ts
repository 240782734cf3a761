// Container entry for "migrate, then exit" (infra/compose.yaml runs it before api and worker):
// the same migrations `pnpm db:migrate` applies, from the built image, with JSON logs.
import { applyMigrations, ensureDatabase } from '@hallmark/db';
import { createLogger, loadConfigOrExit } from '@hallmark/platform';

const config = loadConfigOrExit();
const logger = createLogger('migrate', config);
const { created } = await ensureDatabase(config.DATABASE_URL);
const applied = await applyMigrations(config.DATABASE_URL);
logger.info(
  { created, applied },
  applied.length > 0 ? 'migrations applied' : 'database up to date',
);
