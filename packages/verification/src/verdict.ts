import type { ContentFinding, Verdict, VerificationReason } from '@hallmark/schemas';
import { fingerprintDistance } from '@hallmark/watermark-core';
import { CONTENT_NOT_COMPARED } from './content.ts';
import type { Findings } from './findings.ts';

/** The records of this deployment the findings lead to. */
export interface Leads {
  /** The job that issued the mark found in the pixels; null when none did. */
  readonly byMark: {
    readonly requestId: string;
    readonly manifestId: string | null;
    readonly fingerprint: string | null;
  } | null;
  /** The job that signed the manifest found in the file; null when none did. */
  readonly byManifest: { readonly requestId: string } | null;
}

export interface Decision {
  readonly verdict: Verdict;
  readonly reasons: VerificationReason[];
}

const reason = (code: string, message: string): VerificationReason => ({ code, message });
const bindingMatches = reason(
  'soft_binding_matches_mark',
  'The manifest names exactly the mark the pixels carry.',
);

/**
 * The verdict from what the file says and where it leads (the table in docs/verification.md).
 * The mark survives what drops a manifest (re-encodes, resizes, screenshots); the manifest
 * carries signed facts; the content comparison tells whether the mark sits on the picture it was
 * issued in. Agreement of all is authenticity; disagreement is tampering. A copy that could not
 * be compared is judged by its marks alone: never accused for want of a comparison.
 */
export function decideVerdict(
  findings: Findings,
  leads: Leads,
  content: ContentFinding = CONTENT_NOT_COMPARED,
): Decision {
  const { invisible, c2pa } = findings;
  const reasons: VerificationReason[] = [];
  const valid = c2pa.present && c2pa.state !== 'invalid';

  if (c2pa.present && c2pa.state === 'trusted') {
    reasons.push(
      reason('manifest_trusted', 'The C2PA manifest is intact and its signer is trusted.'),
    );
  } else if (valid) {
    reasons.push(
      reason(
        'manifest_valid_untrusted',
        'The C2PA manifest is intact, but no trust anchor of this deployment vouches for its signer.',
      ),
    );
  } else if (c2pa.present) {
    reasons.push(
      reason(
        'manifest_invalid',
        `The C2PA manifest does not validate (${c2pa.statusCodes.join(', ') || 'unreadable'}): the file changed after signing, or the signature is broken.`,
      ),
    );
  } else {
    reasons.push(reason('no_manifest', 'The file carries no C2PA manifest.'));
  }

  if (!invisible.found || invisible.payload === null) {
    reasons.push(
      findings.markable === false
        ? reason(
            'no_mark',
            'This kind of file cannot carry the invisible mark: only its C2PA manifest was read.',
          )
        : reason('no_mark', 'No invisible mark was found in the pixels.'),
    );
    if (valid && c2pa.softBinding !== null) {
      reasons.push(
        reason(
          'soft_binding_without_mark',
          'The manifest names an invisible mark that the pixels no longer carry.',
        ),
      );
    }
    if (!c2pa.present) return { verdict: 'no_provenance', reasons };
    return { verdict: valid ? 'manifest_only' : 'manifest_invalid', reasons };
  }

  if (leads.byMark === null) {
    reasons.push(
      reason('mark_unknown', `The mark ${invisible.payload} was not issued by this deployment.`),
    );
    return { verdict: 'unknown_mark', reasons };
  }
  reasons.push(
    reason('mark_issued', `The mark ${invisible.payload} was issued by this deployment.`),
  );
  const contentReason = judgeContent(content);
  reasons.push(contentReason);
  if (content.state === 'differs') return { verdict: 'mismatch', reasons };
  if (content.state === 'edited') return { verdict: 'content_edited', reasons };

  if (!c2pa.present) {
    reasons.push(
      reason(
        'manifest_recoverable',
        leads.byMark.manifestId === null
          ? 'The job that issued the mark signed no manifest.'
          : 'The manifest issued with the mark is kept by this deployment and can be fetched.',
      ),
    );
    return { verdict: 'manifest_stripped', reasons };
  }
  if (!valid) return { verdict: 'manifest_invalid', reasons };

  const issuedManifest = leads.byMark.manifestId;
  if (madeFrom(c2pa, issuedManifest)) {
    // Signed again (here, as another job, or by another tool) from the version the mark was
    // issued with: the mark came along with the pixels, and the manifest says so. The new
    // manifest need not name the mark, and its job is not the mark's.
    reasons.push(
      reason(
        'made_from_issued',
        'The manifest was made from the version the mark was issued with (it keeps that manifest as an ingredient): the mark came with it.',
      ),
    );
    if (c2pa.softBinding?.payload === invisible.payload) reasons.push(bindingMatches);
    return { verdict: 'authentic', reasons };
  }

  if (c2pa.softBinding?.payload !== invisible.payload) {
    reasons.push(
      reason(
        'soft_binding_differs',
        c2pa.softBinding === null
          ? 'The manifest names no invisible mark, but the pixels carry one of this deployment.'
          : `The manifest names the mark ${c2pa.softBinding.payload}, the pixels carry ${invisible.payload}.`,
      ),
    );
    return { verdict: 'mismatch', reasons };
  }
  if (leads.byManifest !== null && leads.byManifest.requestId !== leads.byMark.requestId) {
    reasons.push(
      reason(
        'different_records',
        'The manifest and the mark were issued for two different watermark jobs.',
      ),
    );
    return { verdict: 'mismatch', reasons };
  }
  if (issuedManifest !== null && c2pa.manifestId !== issuedManifest) {
    reasons.push(
      reason(
        'manifest_not_issued_with_mark',
        'The manifest names the mark but is not the one issued with it, nor made from it.',
      ),
    );
    return { verdict: 'mismatch', reasons };
  }
  reasons.push(bindingMatches);
  return { verdict: 'authentic', reasons };
}

/**
 * Whether the active manifest is a later version of the one issued with the mark: that manifest
 * is among its ingredients and did not fail validation there.
 */
function madeFrom(c2pa: Findings['c2pa'], issuedManifest: string | null): boolean {
  if (issuedManifest === null || c2pa.manifestId === issuedManifest) return false;
  return c2pa.ingredients.some(
    (ingredient) => ingredient.manifestId === issuedManifest && ingredient.state !== 'invalid',
  );
}

const percent = (share: number | null) => `${Math.round((share ?? 0) * 100)} %`;

/** The content comparison as a reason. */
function judgeContent(content: ContentFinding): VerificationReason {
  switch (content.state) {
    case 'same':
      return reason(
        'content_matches',
        `The picture is the one the mark was issued in (the copy shows ${percent(content.coverage)} of it, unchanged).`,
      );
    case 'edited':
      return reason(
        'content_edited',
        `The picture is the one the mark was issued in, changed in ${content.regions.length} ${content.regions.length === 1 ? 'region' : 'regions'} (${percent(1 - (content.similarity ?? 1))} of what the copy shows; see content.regions).`,
      );
    case 'differs':
      return reason(
        'content_differs',
        'The picture is not the one the mark was issued in: the mark was moved here from another image.',
      );
    case 'not_compared':
      return reason(
        'content_not_compared',
        'The picture was not compared with the one the mark was issued in (no reference is kept for that job, or the copy shows too little of it).',
      );
  }
}

/** How far the file's fingerprint is from the one recorded with the mark's job; null if either is missing. */
export function fingerprintDistanceOf(findings: Findings, leads: Leads): number | null {
  const recorded = leads.byMark?.fingerprint ?? null;
  if (recorded === null || findings.fingerprint === null) return null;
  return fingerprintDistance(recorded, findings.fingerprint);
}
