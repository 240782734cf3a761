import { describe, expect, it } from 'vitest';
import { parseProblem } from './problem-details.ts';

describe('parseProblem', () => {
  it('reads problem details and keeps extension members', () => {
    expect(
      parseProblem(
        {
          type: 'https://hallmark.dev/problems/rate-limited',
          title: 'Too many requests',
          status: 429,
          retryAfter: 3,
        },
        429,
      ),
    ).toEqual({
      type: 'https://hallmark.dev/problems/rate-limited',
      title: 'Too many requests',
      status: 429,
      retryAfter: 3,
    });
  });

  it('fills what RFC 9457 lets a server leave out', () => {
    expect(parseProblem({ title: 'Teapot' }, 418)).toEqual({
      type: 'about:blank',
      title: 'Teapot',
      status: 418,
    });
  });

  it('drops malformed field errors', () => {
    expect(
      parseProblem(
        { type: 't', title: 'x', errors: [{ path: 'a', message: 'b' }, { path: 1 }, null] },
        400,
      )?.errors,
    ).toEqual([{ path: 'a', message: 'b' }]);
  });

  it.each([undefined, 'text', 42, [], { message: 'not a problem' }])(
    'is undefined for %j',
    (body) => {
      expect(parseProblem(body, 500)).toBeUndefined();
    },
  );
});
