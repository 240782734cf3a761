// `pnpm --filter @hallmark/worker backfill-references`: gives the marked jobs made before content
// references were kept a reference of their stored output (see README). Prints what it did.

import { createLogger, loadConfigOrExit } from '@hallmark/config';
import { createDatabase } from '@hallmark/db';
import { createObjectStorage, loadServiceKeys } from '@hallmark/runtime';
import { backfillReferences } from './backfill/reference-backfill.ts';

const config = loadConfigOrExit();
const logger = createLogger('backfill', config);
const database = createDatabase(config.DATABASE_URL);
try {
  const storage = createObjectStorage(config, await loadServiceKeys(config));
  const report = await backfillReferences(database.sql, storage, logger, config.MAX_IMAGE_PIXELS);
  console.log(
    `content references: ${report.filled} filled, ${report.outputGone} not possible (output deleted by retention), ${report.failed} failed (see the log)`,
  );
  process.exitCode = report.failed === 0 ? 0 : 1;
} finally {
  await database.close();
}
