import { describe, expect, it } from 'vitest';
import { type ZodType, z } from 'zod';
import * as contract from './index.ts';

/**
 * Examples end up in the OpenAPI document, where readers copy them; each must pass its own
 * schema or the documentation would teach invalid requests.
 */
const examplesBySchema = Object.entries(contract).flatMap(([name, value]) => {
  if (!(value instanceof z.ZodType)) return [];
  const examples = z.globalRegistry.get(value)?.examples;
  if (!Array.isArray(examples)) return [];
  return examples.map((example, index): [string, ZodType, unknown] => [
    `${name} #${index}`,
    value,
    example,
  ]);
});

describe('documented examples', () => {
  it('exist for the main resources', () => {
    expect(examplesBySchema.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'UploadLinkRequest #0',
        'WatermarkRequest #0',
        'WatermarkJob #0',
        'Nft #0',
        'IpfsRecord #0',
        'Problem #0',
      ]),
    );
  });

  it.each(examplesBySchema)('%s passes its schema', (_name, schema, example) => {
    expect(schema.safeParse(example).error).toBeUndefined();
  });
});
