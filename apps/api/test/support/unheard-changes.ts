import { DatabaseChanges } from '../../src/changes/database-changes.service.ts';
import type { TestApp } from './test-app.ts';

/**
 * Settles once the app listens for changes. Its first LISTEN connection empties the caches
 * (changes made before it were not heard), which a test of a cache entry's lifetime must not
 * mistake for a change heard: it caches only after this.
 */
export async function listeningForChanges(app: TestApp): Promise<void> {
  await app.app.get(DatabaseChanges).listening();
}

/**
 * Runs `change` with the trigger that announces changes of `table` disabled, so the app hears
 * nothing of it; the trigger is enabled again after, whatever happens.
 */
export async function withChangesUnheard(
  app: TestApp,
  trigger: { readonly table: string; readonly name: string },
  change: () => Promise<void>,
): Promise<void> {
  await app.prisma.$executeRawUnsafe(
    `ALTER TABLE ${trigger.table} DISABLE TRIGGER ${trigger.name}`,
  );
  try {
    await change();
  } finally {
    await app.prisma.$executeRawUnsafe(
      `ALTER TABLE ${trigger.table} ENABLE TRIGGER ${trigger.name}`,
    );
  }
}
