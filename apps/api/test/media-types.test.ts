// The SDK has no dependencies, so it keeps its own table of the extensions it can tell a file's
// type by; it must name exactly the contract's, or a client would send a type the API refuses.

import { MEDIA_TYPES } from '@hallmark/schemas';
import { contentTypeOfName, KNOWN_EXTENSIONS } from '@hallmark/sdk';
import { describe, expect, it } from 'vitest';

describe("the SDK's extensions and the contract's media table", () => {
  it('tell every extension of the table by its type, and know no other', () => {
    const contract = MEDIA_TYPES.flatMap((type) =>
      type.extensions.map((extension) => [extension, type.mimeType] as const),
    );
    for (const [extension, mimeType] of contract) {
      expect(contentTypeOfName(`file.${extension.toUpperCase()}`), extension).toBe(mimeType);
    }
    expect([...KNOWN_EXTENSIONS].sort()).toEqual(contract.map(([extension]) => extension).sort());
  });
});
