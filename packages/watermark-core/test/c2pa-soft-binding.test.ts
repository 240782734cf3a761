import { describe, expect, it } from 'vitest';
import { readManifest, signManifest } from '../src/c2pa/index.ts';
import { detectMark, embedMark, INVISIBLE_MARK_ALGORITHM, payloadToHex } from '../src/invisible.ts';
import { photo, useDevelopmentSigner } from './c2pa-fixtures.ts';

const dev = useDevelopmentSigner();

describe('soft binding to the invisible mark', () => {
  it('carries the payload the invisible detector reads from the same signed file', async () => {
    const payload = 0x5eed_c2fa_0123_4567n;
    const marked = await embedMark(await photo('boats-0.6mp.jpg'), payload);
    const signed = await signManifest(
      marked.image,
      { softBinding: { algorithm: INVISIBLE_MARK_ALGORITHM, payloadHex: payloadToHex(payload) } },
      dev.signer,
    );

    const detection = await detectMark(signed.bytes);
    const summary = await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem });
    expect(detection.found).toBe(true);
    expect(summary.present && summary.validation.state).toBe('trusted');
    expect(summary.present && summary.softBinding).toEqual({
      algorithm: INVISIBLE_MARK_ALGORITHM,
      payloadHex: payloadToHex(detection.payload ?? -1n),
    });
    expect(summary.present && summary.actions.map((action) => action.action)).toEqual([
      'c2pa.created',
      'c2pa.watermarked.bound',
    ]);
  });

  it('keeps a fixed payload byte for byte', async () => {
    const signed = await signManifest(
      await photo('fig-0.25mp.jpg'),
      { softBinding: { algorithm: 'hallmark.invisible.v1', payloadHex: '00ff00ff00ff00ff' } },
      dev.signer,
    );
    const summary = await readManifest(signed.bytes);
    expect(summary.present && summary.softBinding?.payloadHex).toBe('00ff00ff00ff00ff');
  });
});
