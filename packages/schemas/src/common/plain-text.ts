import { z } from 'zod';

/**
 * Characters a person's text never needs and an attacker's does: control characters (a CR/LF in
 * a name becomes a mail header), bidirectional overrides, embeddings and isolates (text that
 * reads differently from what it is, e.g. a name ending in "gpj.exe"), and invisible spaces and
 * joiners that are not part of any script (zero-width space, word joiner, byte-order mark). The
 * zero-width non-joiner and joiner stay: Persian, Indic scripts and emoji sequences need them.
 */
const DECEPTIVE = /[\p{Cc}\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;
const MESSAGE = 'must not contain control characters, bidirectional controls or invisible spaces';

/** One line of text from a person: a name, a company, a short answer. Trimmed, 1 to max. */
export function singleLineText(maxLength: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .refine((value) => !DECEPTIVE.test(value), MESSAGE);
}

/** Text of several lines from a person (line breaks and tabs allowed). Trimmed, 1 to max. */
export function multiLineText(maxLength: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .refine((value) => !DECEPTIVE.test(value.replace(/[\t\r\n]/g, '')), MESSAGE);
}
