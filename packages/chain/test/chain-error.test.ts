import { HttpRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { ChainError, classifyChainError } from '../src/index.ts';

const url = 'http://127.0.0.1:1';

describe('classifyChainError', () => {
  it('keeps an error that is already classified', () => {
    const error = new ChainError('mint_reverted', 'no');
    expect(classifyChainError(error)).toBe(error);
  });

  it('tells a refusing endpoint (bad credentials) from an unreachable one', () => {
    expect(classifyChainError(new HttpRequestError({ url, status: 401 }))).toMatchObject({
      code: 'misconfigured',
      retryable: false,
    });
    expect(classifyChainError(new HttpRequestError({ url, status: 503 }))).toMatchObject({
      code: 'rpc_unreachable',
      retryable: true,
    });
  });

  it('recognises node wording where no typed error exists', () => {
    const funds = new Error('insufficient funds for gas * price + value');
    expect(classifyChainError(funds).code).toBe('insufficient_funds');
    expect(classifyChainError(new Error('nonce too low')).code).toBe('nonce_conflict');
    expect(classifyChainError(new Error('something else'))).toMatchObject({
      code: 'rpc_error',
      retryable: true,
    });
  });
});
