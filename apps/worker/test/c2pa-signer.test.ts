import { loadConfig } from '@hallmark/config';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createC2paSigner } from '../src/techniques/c2pa-signer.ts';

describe("the worker's C2PA signer", () => {
  it('refuses a certificate chain without its key rather than sign with the development identity', async () => {
    const config = loadConfig({ C2PA_CERT_CHAIN_PATH: '/run/secrets/chain.pem' });
    await expect(createC2paSigner(config, pino({ level: 'silent' }))).rejects.toThrow(
      /C2PA_CERT_CHAIN_PATH is set without C2PA_PRIVATE_KEY_PATH/,
    );
  });
});
