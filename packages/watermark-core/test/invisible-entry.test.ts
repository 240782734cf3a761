// The `./invisible` entry is what the worker's pixel threads load: it must bring the mark and
// sharp, and nothing of C2PA (whose code would double those threads' heap).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Imports `specifier` in a fresh Node process; returns every package it loaded. */
async function packagesLoadedBy(specifier: string): Promise<string[]> {
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = new Set();
    registerHooks({
      resolve(spec, context, next) {
        const result = next(spec, context);
        const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(?!.*node_modules)/.exec(result.url);
        if (match) loaded.add(match[1]);
        return result;
      },
    });
    const entry = await import(${JSON.stringify(specifier)});
    if (typeof entry.embedMark !== 'function') throw new Error('no embedMark');
    console.log(JSON.stringify([...loaded]));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: import.meta.dirname,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as string[];
}

describe('@hallmark/watermark-core/invisible', () => {
  it('loads the mark and sharp without any C2PA code', async () => {
    const invisible = await packagesLoadedBy('@hallmark/watermark-core/invisible');
    expect(invisible).toContain('sharp');
    expect(invisible.filter((name) => /c2pa|pkijs|asn1js|noble|zod/.test(name))).toEqual([]);
  });

  it('is a part of the whole package, which does load C2PA', async () => {
    const whole = await packagesLoadedBy('@hallmark/watermark-core');
    expect(whole).toContain('@contentauth/c2pa-node');
  });
});
