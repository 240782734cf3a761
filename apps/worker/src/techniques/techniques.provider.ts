import type { Provider } from '@nestjs/common';
import { TECHNIQUES, type Techniques } from './techniques.ts';

/**
 * The engines in @hallmark/watermark-core are wired here as they land. Until then none is
 * available, and the pipeline fails a job with `technique_unavailable` instead of producing a
 * file that only pretends to be watermarked.
 */
export const techniquesProvider: Provider = {
  provide: TECHNIQUES,
  useFactory: (): Techniques => ({}),
};
