import type { C2paFinding, ContentFinding } from '@hallmark/schemas';
import { describe, expect, it } from 'vitest';
import { CONTENT_NOT_COMPARED, decideVerdict, type Findings, type Leads } from '../src/index.ts';

const PAYLOAD = '0123456789abcdef';

function findings(options: {
  mark?: string | null;
  manifest?: 'none' | 'trusted' | 'valid_untrusted' | 'invalid';
  binding?: string | null;
  manifestId?: string;
  ingredients?: string[];
  fingerprint?: string;
}): Findings {
  const mark = options.mark === undefined ? PAYLOAD : options.mark;
  const manifest = options.manifest ?? 'trusted';
  const c2pa: C2paFinding =
    manifest === 'none'
      ? {
          present: false,
          manifestId: null,
          state: null,
          statusCodes: [],
          signer: null,
          actions: [],
          metadata: {},
          softBinding: null,
          ingredients: [],
        }
      : {
          present: true,
          manifestId: options.manifestId ?? 'urn:c2pa:issued',
          state: manifest,
          statusCodes: manifest === 'invalid' ? ['assertion.dataHash.mismatch'] : [],
          signer: null,
          actions: [],
          metadata: {},
          softBinding:
            options.binding === null
              ? null
              : { algorithm: 'io.hallmark.mark.1', payload: options.binding ?? PAYLOAD },
          ingredients: (options.ingredients ?? []).map((id) => ({
            title: null,
            relationship: 'parentOf',
            manifestId: id,
            state: 'valid_untrusted' as const,
            depth: 1,
          })),
        };
  return {
    fingerprint: options.fingerprint ?? '00ff00ff00ff00ff',
    invisible: {
      found: mark !== null,
      algorithm: 'io.hallmark.mark.1',
      payload: mark,
      confidence: mark === null ? 0 : 0.9,
      geometry: null,
    },
    markGeometry: null,
    c2pa,
  };
}

const issued: Leads = {
  byMark: { requestId: 'job-1', manifestId: 'urn:c2pa:issued', fingerprint: '00ff00ff00ff00fe' },
  byManifest: { requestId: 'job-1' },
};
const unknown: Leads = { byMark: null, byManifest: null };

const same: ContentFinding = { state: 'same', coverage: 0.25, similarity: 1, regions: [] };
const edited: ContentFinding = {
  state: 'edited',
  coverage: 1,
  similarity: 0.9,
  regions: [{ x: 10, y: 20, width: 30, height: 40 }],
};
const differs: ContentFinding = { state: 'differs', coverage: 1, similarity: 0.2, regions: [] };

describe('the verdict table', () => {
  it.each([
    ['authentic: valid manifest binding the issued mark', findings({}), issued, same, 'authentic'],
    [
      'authentic: also when untrusted, or re-signed with the issued manifest as its parent',
      findings({
        manifest: 'valid_untrusted',
        manifestId: 'urn:c2pa:edit',
        ingredients: ['urn:c2pa:issued'],
      }),
      { ...issued, byManifest: null },
      same,
      'authentic',
    ],
    [
      'authentic: signed again here as another job, without naming the mark, from the issued version',
      findings({ binding: null, manifestId: 'urn:c2pa:job-2', ingredients: ['urn:c2pa:issued'] }),
      { ...issued, byManifest: { requestId: 'job-2' } },
      same,
      'authentic',
    ],
    [
      'authentic: signed again by another tool from an ancestor of it, naming another mark',
      findings({
        manifest: 'valid_untrusted',
        binding: 'ffffffffffffffff',
        manifestId: 'urn:c2pa:elsewhere',
        ingredients: ['urn:c2pa:step', 'urn:c2pa:issued'],
      }),
      { ...issued, byManifest: null },
      same,
      'authentic',
    ],
    [
      'content_edited: signed again from the issued version, the picture changed in places',
      findings({ binding: null, manifestId: 'urn:c2pa:job-2', ingredients: ['urn:c2pa:issued'] }),
      { ...issued, byManifest: { requestId: 'job-2' } },
      edited,
      'content_edited',
    ],
    [
      'mismatch: signed again from the issued version, but the mark sits on another picture',
      findings({ binding: null, manifestId: 'urn:c2pa:job-2', ingredients: ['urn:c2pa:issued'] }),
      { ...issued, byManifest: { requestId: 'job-2' } },
      differs,
      'mismatch',
    ],
    [
      'mismatch: a manifest of another job naming no mark, made from something else',
      findings({ binding: null, manifestId: 'urn:c2pa:job-2', ingredients: ['urn:c2pa:other'] }),
      { ...issued, byManifest: { requestId: 'job-2' } },
      same,
      'mismatch',
    ],
    [
      'manifest_stripped: issued mark, no manifest, the same picture',
      findings({ manifest: 'none' }),
      { ...issued, byManifest: null },
      same,
      'manifest_stripped',
    ],
    [
      'manifest_stripped: not compared (no reference kept), never accused, however far the fingerprint',
      findings({ manifest: 'none', fingerprint: 'ff00ff00ff00ff00' }),
      { ...issued, byManifest: null },
      CONTENT_NOT_COMPARED,
      'manifest_stripped',
    ],
    [
      'mismatch: the manifest binds another mark',
      findings({ binding: 'ffffffffffffffff' }),
      issued,
      same,
      'mismatch',
    ],
    ['mismatch: the manifest binds no mark', findings({ binding: null }), issued, same, 'mismatch'],
    [
      'mismatch: mark and manifest of two jobs',
      findings({}),
      { ...issued, byManifest: { requestId: 'job-2' } },
      same,
      'mismatch',
    ],
    [
      'mismatch: a foreign manifest copying the binding',
      findings({ manifestId: 'urn:c2pa:forged' }),
      { ...issued, byManifest: null },
      same,
      'mismatch',
    ],
    [
      'mismatch: the mark sits on another picture (content_differs)',
      findings({ manifest: 'none' }),
      { ...issued, byManifest: null },
      differs,
      'mismatch',
    ],
    [
      'content_edited: the issued picture, changed in places, manifest stripped',
      findings({ manifest: 'none' }),
      { ...issued, byManifest: null },
      edited,
      'content_edited',
    ],
    [
      'content_edited: also under a manifest that no longer validates',
      findings({ manifest: 'invalid' }),
      issued,
      edited,
      'content_edited',
    ],
    [
      'manifest_invalid: issued mark, broken manifest',
      findings({ manifest: 'invalid' }),
      issued,
      same,
      'manifest_invalid',
    ],
    [
      'manifest_invalid: no mark, broken manifest',
      findings({ mark: null, manifest: 'invalid' }),
      unknown,
      CONTENT_NOT_COMPARED,
      'manifest_invalid',
    ],
    [
      'manifest_only: valid manifest, no mark',
      findings({ mark: null, binding: null }),
      unknown,
      CONTENT_NOT_COMPARED,
      'manifest_only',
    ],
    [
      'unknown_mark: a mark not issued here',
      findings({ manifest: 'none' }),
      unknown,
      CONTENT_NOT_COMPARED,
      'unknown_mark',
    ],
    [
      'no_provenance: neither',
      findings({ mark: null, manifest: 'none' }),
      unknown,
      CONTENT_NOT_COMPARED,
      'no_provenance',
    ],
  ] as const)('%s', (_, found, leads, content, verdict) => {
    const decision = decideVerdict(found, leads, content);
    expect(decision.verdict).toBe(verdict);
    expect(decision.reasons.length).toBeGreaterThan(0);
    for (const entry of decision.reasons) expect(entry.message.length).toBeGreaterThan(10);
  });

  it('gives the content reason of each state, after the mark', () => {
    const codes = (content: ContentFinding) =>
      decideVerdict(findings({ manifest: 'none' }), { ...issued, byManifest: null }, content)
        .reasons.map((entry) => entry.code)
        .slice(1, 3);
    expect(codes(same)).toEqual(['mark_issued', 'content_matches']);
    expect(codes(edited)).toEqual(['mark_issued', 'content_edited']);
    expect(codes(differs)).toEqual(['mark_issued', 'content_differs']);
    expect(codes(CONTENT_NOT_COMPARED)).toEqual(['mark_issued', 'content_not_compared']);
    const matched = decideVerdict(findings({}), issued, same).reasons.find(
      (entry) => entry.code === 'content_matches',
    );
    expect(matched?.message).toContain('25 %');
  });

  it('says why: a manifest that names a mark the pixels lost', () => {
    const decision = decideVerdict(findings({ mark: null }), unknown);
    expect(decision.verdict).toBe('manifest_only');
    expect(decision.reasons.map((entry) => entry.code)).toEqual([
      'manifest_trusted',
      'no_mark',
      'soft_binding_without_mark',
    ]);
  });

  it('says why a video, a sound or another unmarkable file has no mark, and judges it by its manifest', () => {
    const video = { ...findings({ mark: null, binding: null }), markable: false };
    const decision = decideVerdict(video, unknown);
    expect(decision.verdict).toBe('manifest_only');
    expect(decision.reasons.map((entry) => entry.code)).toEqual(['manifest_trusted', 'no_mark']);
    expect(decision.reasons[1]?.message).toBe(
      'This kind of file cannot carry the invisible mark: only its C2PA manifest was read.',
    );
    const image = decideVerdict(findings({ mark: null, binding: null }), unknown);
    expect(image.reasons[1]?.message).toBe('No invisible mark was found in the pixels.');
  });
});
