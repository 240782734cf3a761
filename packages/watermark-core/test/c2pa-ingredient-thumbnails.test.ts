import { Builder } from '@contentauth/c2pa-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  type IngredientSummary,
  MAX_THUMBNAIL_BYTES,
  MAX_THUMBNAILS,
  type ManifestSummary,
  readManifest,
  signManifest,
} from '../src/c2pa/index.ts';
import { c2paFixture, photo, useDevelopmentSigner } from './c2pa-fixtures.ts';

const dev = useDevelopmentSigner();

function ingredientsOf(summary: ManifestSummary): readonly IngredientSummary[] {
  if (!summary.present) throw new Error('expected a manifest');
  return summary.ingredients;
}

/** A JPEG of random pixels at this size: noise does not compress, so it stays large. */
async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 7919) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
}

interface CraftedIngredient {
  readonly title: string;
  readonly format: string;
  readonly bytes: Buffer;
}

/**
 * A JPEG whose manifest lists these ingredients, each with the given bytes as its thumbnail
 * under the declared format: what another tool (or an attacker) may write.
 */
async function craftedHistory(ingredients: readonly CraftedIngredient[]): Promise<Buffer> {
  const source = await photo('cat-0.15mp.jpg');
  const builder = Builder.withJson(
    {
      claim_generator_info: [{ name: 'crafted', version: '1' }],
      format: 'image/jpeg',
      assertions: [],
    } as never,
    { builder: { thumbnail: { enabled: false } } },
  );
  for (const [index, ingredient] of ingredients.entries()) {
    const identifier = `thumbnail-${index}`;
    await builder.addResource(identifier, {
      buffer: ingredient.bytes,
      mimeType: ingredient.format,
    });
    await builder.addIngredient(
      JSON.stringify({
        title: ingredient.title,
        format: 'image/jpeg',
        relationship: 'componentOf',
        instance_id: `xmp:iid:crafted-${index}`,
        thumbnail: { format: ingredient.format, identifier },
      }),
    );
  }
  const output: { buffer: Buffer | null } = { buffer: null };
  await builder.signConfigAsync(
    async (bytes: Buffer) => Buffer.from(await dev.signer.sign(bytes)),
    {
      alg: dev.signer.algorithm,
      certs: [Buffer.from(dev.signer.certChainPem)],
      reserveSize: 2048 + dev.signer.certChainDerBytes,
      directCoseHandling: false,
    },
    { buffer: source, mimeType: 'image/jpeg' },
    output,
  );
  if (output.buffer === null) throw new Error('the crafted file was not written');
  return output.buffer;
}

describe('ingredient thumbnails', () => {
  it('a re-signed output keeps a small JPEG of its parent, and a reader gets it back', async () => {
    const first = await signManifest(
      await photo('boats-0.6mp.jpg'),
      { title: 'first' },
      dev.signer,
    );
    const second = await signManifest(first.bytes, { title: 'second' }, dev.signer);
    const [parent] = ingredientsOf(await readManifest(second));

    expect(parent?.thumbnail?.mimeType).toBe('image/jpeg');
    const bytes = parent?.thumbnail?.bytes ?? new Uint8Array();
    expect(bytes.length).toBeLessThanOrEqual(MAX_THUMBNAIL_BYTES);
    const { width, height, format } = await sharp(bytes).metadata();
    expect(format).toBe('jpeg');
    expect(Math.max(width, height)).toBe(256);
    // boats-0.6mp.jpg is landscape: the shape is kept.
    expect(width).toBeGreaterThan(height);
  });

  it("keeps a third-party ingredient's own thumbnail (CA.jpg's picture of A.jpg)", async () => {
    const [ca] = ingredientsOf(await readManifest(await c2paFixture('CA.jpg')));
    expect(ca?.title).toBe('A.jpg');
    expect(ca?.thumbnail?.mimeType).toBe('image/jpeg');
    expect((await sharp(ca?.thumbnail?.bytes).metadata()).format).toBe('jpeg');
  });

  it('leaves off a thumbnail too large, one that is not what it declares, and SVG', async () => {
    const small = await sharp(await photo('cat-0.15mp.jpg'))
      .resize(64)
      .jpeg()
      .toBuffer();
    const png = await sharp(small).png().toBuffer();
    const oversized = await noiseJpeg(400, 400);
    expect(oversized.length).toBeGreaterThan(MAX_THUMBNAIL_BYTES);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const crafted = await craftedHistory([
      { title: 'oversized', format: 'image/jpeg', bytes: oversized },
      { title: 'png-as-jpeg', format: 'image/jpeg', bytes: png },
      { title: 'svg', format: 'image/svg+xml', bytes: svg },
      { title: 'text-as-png', format: 'image/png', bytes: Buffer.from('not an image at all') },
      { title: 'png', format: 'image/png', bytes: png },
      { title: 'jpeg', format: 'image/jpeg', bytes: small },
    ]);
    const thumbnails = ingredientsOf(await readManifest(crafted)).map((ingredient) => [
      ingredient.title,
      ingredient.thumbnail?.mimeType ?? null,
    ]);
    expect(thumbnails).toEqual([
      ['oversized', null],
      ['png-as-jpeg', null],
      ['svg', null],
      ['text-as-png', null],
      ['png', 'image/png'],
      ['jpeg', 'image/jpeg'],
    ]);
  });

  it('gives thumbnails to the first few ingredients of a long history only', async () => {
    const small = await sharp(await photo('cat-0.15mp.jpg'))
      .resize(32)
      .jpeg()
      .toBuffer();
    const crafted = await craftedHistory(
      Array.from({ length: MAX_THUMBNAILS + 2 }, (_, index) => ({
        title: `step ${index}`,
        format: 'image/jpeg',
        bytes: small,
      })),
    );
    const shown = ingredientsOf(await readManifest(crafted)).map(
      (ingredient) => ingredient.thumbnail !== null,
    );
    expect(shown).toEqual([...Array.from({ length: MAX_THUMBNAILS }, () => true), false, false]);
  });
});
