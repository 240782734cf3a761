// `pnpm build` step 1: writes the Prisma client to src/generated/prisma (gitignored), which tsc
// then compiles with the rest of src/.
//
// `prisma generate` itself needs no engine binary, but the CLI still resolves (and, when missing,
// downloads) the native schema engine before generating. That download cannot work offline, so we
// point PRISMA_SCHEMA_ENGINE_BINARY at an existing file that is never run; migrations use the WASM
// engine instead (src/migrations.ts). CHECKPOINT_DISABLE stops the CLI's update check, the only
// other network request it makes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const prismaCli = join(
  dirname(createRequire(import.meta.url).resolve('prisma/package.json')),
  'build/index.js',
);
const neverRunEngine = existsSync('/bin/false') ? '/bin/false' : process.execPath;

const result = spawnSync(process.execPath, [prismaCli, 'generate'], {
  cwd: packageRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? neverRunEngine,
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});

if (result.error) throw result.error;
process.exitCode = result.status ?? 1;
