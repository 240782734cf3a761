import { readFileSync } from 'node:fs';

// The package version names the software in every manifest. Read at load time from the package
// file, which sits two folders up from both src/c2pa and dist/c2pa.
const packageJson = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** The `softwareAgent` of Hallmark's actions and the manifest's claim generator. */
export const SOFTWARE_AGENT: { readonly name: string; readonly version: string } = {
  name: 'Hallmark',
  version: packageJson.version,
};
