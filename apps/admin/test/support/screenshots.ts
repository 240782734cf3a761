import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

// Every run takes them (a report of what the suite saw); UPDATE_SCREENSHOTS=1 writes the
// committed copies the docs show.
const directory = process.env.UPDATE_SCREENSHOTS
  ? join(import.meta.dirname, '../../../../docs/screenshots')
  : join(import.meta.dirname, '../../reports/screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: join(directory, `console-${name}.png`), fullPage: true });
}
