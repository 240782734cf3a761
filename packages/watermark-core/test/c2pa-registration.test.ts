// The soft binding algorithm entry an operator submits to the C2PA (docs/c2pa) must validate
// against the list's published schema and name the algorithm the manifests carry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { INVISIBLE_MARK_ALGORITHM } from '../src/invisible.ts';

const docs = join(import.meta.dirname, '../../../docs/c2pa');
const json = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(join(docs, name), 'utf8'));

describe('the soft binding algorithm entry for registration', () => {
  it('validates against the C2PA list schema and names the algorithm the manifests carry', async () => {
    const ajv = new Ajv2020({ allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile((await json('softbinding-algorithm-list.schema.json')) as object);
    const entry = (await json('softbinding-algorithm-entry.json')) as { alg: string };
    expect(validate([entry]), ajv.errorsText(validate.errors)).toBe(true);
    expect(entry.alg).toBe(INVISIBLE_MARK_ALGORITHM);
  });

  it('would refuse an entry without its required metadata', async () => {
    const ajv = new Ajv2020();
    addFormats.default(ajv);
    const validate = ajv.compile((await json('softbinding-algorithm-list.schema.json')) as object);
    const entry = (await json('softbinding-algorithm-entry.json')) as Record<string, unknown>;
    expect(validate([{ ...entry, entryMetadata: { description: 'x' } }])).toBe(false);
  });
});
