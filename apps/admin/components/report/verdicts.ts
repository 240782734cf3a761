import type { Verdict } from '@hallmark/sdk';

/** How a verdict reads to someone who is not a provenance expert, and its badge's tone. */
export interface VerdictWording {
  readonly label: string;
  readonly meaning: string;
  readonly tone: 'good' | 'caution' | 'bad' | 'neutral';
}

export const VERDICT_WORDING: Readonly<Record<Verdict, VerdictWording>> = {
  authentic: {
    label: 'Authentic',
    meaning:
      'This picture carries its signed Content Credentials and the invisible mark issued with them (or with the version they were made from), and it shows the picture that was issued.',
    tone: 'good',
  },
  manifest_stripped: {
    label: 'Credentials removed',
    meaning:
      'The invisible mark shows this picture was issued here, but its signed Content Credentials were removed (a re-post or a screenshot often does that). The record it was issued with is below.',
    tone: 'caution',
  },
  content_edited: {
    label: 'Edited',
    meaning:
      'This is the issued picture, changed in places after it was issued: the changed regions are outlined.',
    tone: 'bad',
  },
  mismatch: {
    label: 'Does not match',
    meaning:
      'The marks disagree with each other or with the picture they were issued for: a mark or credentials taken from another picture.',
    tone: 'bad',
  },
  manifest_invalid: {
    label: 'Credentials broken',
    meaning:
      'The picture carries Content Credentials whose signature or hashes fail: it was changed after signing, or they were forged.',
    tone: 'bad',
  },
  manifest_only: {
    label: 'Credentials only',
    meaning:
      'The picture carries valid Content Credentials but no invisible mark of this service: who signed them is below.',
    tone: 'neutral',
  },
  unknown_mark: {
    label: 'Unknown mark',
    meaning: 'The picture carries an invisible mark this service did not issue.',
    tone: 'neutral',
  },
  no_provenance: {
    label: 'No provenance',
    meaning:
      'Neither an invisible mark nor Content Credentials were found: nothing says where this picture comes from.',
    tone: 'neutral',
  },
};
