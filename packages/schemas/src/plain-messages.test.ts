import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdminRateLimit, AdminWallet } from './admin.ts';
import { KeyRequestCreate } from './key-request.ts';
import { plainIssueMessage } from './plain-messages.ts';
import { toFieldErrors } from './validation-errors.ts';

function messagesOf(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value, { error: plainIssueMessage });
  if (result.success) throw new Error('expected a failure');
  return Object.fromEntries(toFieldErrors(result.error).map((e) => [e.path, e.message]));
}

describe('plainIssueMessage', () => {
  it('names what a person must change in a form, in their words', () => {
    expect(
      messagesOf(KeyRequestCreate, {
        companyName: '   ',
        purpose: 'x'.repeat(2001),
        contactEmail: 'not an email',
      }),
    ).toEqual({
      companyName: 'Required.',
      purpose: 'Use at most 2000 characters.',
      contactName: 'Required.',
      contactEmail: 'Enter an email address, such as name@example.com.',
    });
    expect(messagesOf(AdminRateLimit, { rateLimitPerMinute: 'many' })).toEqual({
      rateLimitPerMinute: 'Enter a number.',
    });
    expect(messagesOf(AdminRateLimit, { rateLimitPerMinute: 1.5 })).toEqual({
      rateLimitPerMinute: 'Enter a whole number.',
    });
    expect(messagesOf(AdminRateLimit, { rateLimitPerMinute: 0 })).toEqual({
      rateLimitPerMinute: 'Enter 1 or more.',
    });
    expect(messagesOf(z.object({ pick: z.enum(['a', 'b']) }), { pick: 'c' })).toEqual({
      pick: 'Choose one of: a, b.',
    });
  });

  it("keeps a schema's own message", () => {
    expect(messagesOf(AdminWallet, { walletAddress: '0x1234' }).walletAddress).toMatch(/address/);
  });
});
