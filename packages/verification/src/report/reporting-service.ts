import { readFileSync } from 'node:fs';

// The version that signs a report is the verification package's: it decides what a report says.
// Read at load time from the package file, two folders up from both src/report and dist/report.
const packageJson = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** Names the service in a statement; `url` is the deployment's public address. */
export function reportingService(url: string): { name: string; url: string; version: string } {
  return { name: 'Hallmark', url, version: packageJson.version };
}
