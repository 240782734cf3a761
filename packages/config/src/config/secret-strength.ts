/**
 * Words that mark a secret as copied from a template or a tutorial rather than generated. A
 * production secret signs every link and access token: anyone who read the template could forge
 * them.
 */
const PLACEHOLDER_WORDS = [
  'change',
  'replace',
  'placeholder',
  'example',
  'secret',
  'password',
  'default',
  'dummy',
  'todo',
];

/** Fewer distinct characters than this is a pattern (`aaaa…`, `0123…0123`), not randomness. */
const MIN_DISTINCT_CHARACTERS = 12;

/**
 * Why a HALLMARK_SECRET is not fit for production, or null when it looks generated. Catches the
 * mistakes that happen (a template's value, a word, a repeated pattern); it cannot measure real
 * entropy, so the documentation says how to generate one.
 */
export function secretWeakness(secret: string): string | null {
  const lower = secret.toLowerCase();
  const word = PLACEHOLDER_WORDS.find((candidate) => lower.includes(candidate));
  if (word !== undefined) return `looks like a placeholder (contains "${word}")`;
  if (new Set(secret).size < MIN_DISTINCT_CHARACTERS)
    return `has fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`;
  return null;
}
