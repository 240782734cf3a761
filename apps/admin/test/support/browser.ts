import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
  });
}
