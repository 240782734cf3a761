import { existsSync } from 'node:fs';
import { HANG_MS } from '@hallmark/runtime/testing';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
} from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium as the console's users run it. The machine's network is closed: without
 * the background-networking flags Chromium keeps dialling Google's hosts.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // Playwright's timeouts (30 s) are for hangs here too: two suites at once on two cores.
    timeout: HANG_MS,
  });
}

/**
 * A fresh browser profile whose actions and navigations wait as long as a hang bound; `options`
 * for a phone's screen or a browser without JavaScript.
 */
export async function openContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(HANG_MS);
  context.setDefaultNavigationTimeout(HANG_MS);
  return context;
}
