import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = join(import.meta.dirname, '..');

/** The names `src/index.ts` exports by name (types included), and the client's methods. */
async function exportedNames(): Promise<string[]> {
  const index = await readFile(join(folder, 'src/index.ts'), 'utf8');
  const named = [...index.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((name) => name.replace(/^\s*type\s+/, '').trim())
      .filter((name) => name !== ''),
  );
  const client = await readFile(join(folder, 'src/generated/client.ts'), 'utf8');
  const classes = [...client.matchAll(/^export class (\w+)/gm)].map((match) => match[1] ?? '');
  const methods = [...client.matchAll(/^ {2}(\w+)\(/gm)].map((match) => match[1] ?? '');
  return [...new Set([...named, ...classes, ...methods])].filter((name) => name !== 'constructor');
}

describe('README.md', () => {
  it('names every export and every client method', async () => {
    const readme = await readFile(join(folder, 'README.md'), 'utf8');
    const names = await exportedNames();
    expect(names).toEqual(expect.arrayContaining(['checkReport', 'verifyFile', 'HallmarkClient']));
    expect(names.filter((name) => !readme.includes(`\`${name}`))).toEqual([]);
  });
});
