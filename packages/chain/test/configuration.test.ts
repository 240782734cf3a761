import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertMarketplaceUrlTemplate,
  custodyAddressOf,
  loadMinterKey,
  MinterKeyError,
  marketplaceUrl,
  networkName,
  resolveTokenOwner,
} from '../src/index.ts';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const KEY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

describe('marketplaceUrl', () => {
  it('fills chain slug, chain id, checksummed contract and token id', () => {
    expect(
      marketplaceUrl('https://opensea.io/assets/{chain}/{contract}/{tokenId}', {
        chainId: 1,
        contract: CONTRACT,
        tokenId: 42n,
      }),
    ).toBe('https://opensea.io/assets/ethereum/0x5FbDB2315678afecb367f032d93F642f64180aa3/42');
    expect(
      marketplaceUrl('https://explorer.example/{chainId}/token/{contract}?a={tokenId}', {
        chainId: 31337,
        contract: CONTRACT,
        tokenId: '7',
      }),
    ).toBe('https://explorer.example/31337/token/0x5FbDB2315678afecb367f032d93F642f64180aa3?a=7');
  });

  it('refuses unknown placeholders and templates that are not http(s) URLs', () => {
    expect(() => assertMarketplaceUrlTemplate('https://x.example/{token}')).toThrow(/\{token\}/);
    expect(() => assertMarketplaceUrlTemplate('ipfs://{tokenId}')).toThrow(/http/);
    expect(() => assertMarketplaceUrlTemplate('https://x.example/{chain}/{tokenId}')).not.toThrow();
  });
});

describe('networkName', () => {
  it('names well-known networks, the local chain, and anything else by id', () => {
    expect(networkName(1)).toBe('Ethereum');
    expect(networkName(11155111)).toBe('Sepolia');
    expect(networkName(137)).toBe('Polygon');
    expect(networkName(31337)).toBe('Anvil (local)');
    expect(networkName(987_654_321_987)).toBe('Chain 987654321987');
  });
});

describe('token owner', () => {
  it("is the API key's wallet when it has one, else the custody wallet", () => {
    const custody = custodyAddressOf({ minterKey: KEY });
    expect(custody).toBe(KEY_ADDRESS);
    expect(resolveTokenOwner({ apiKeyWallet: CONTRACT, custodyAddress: custody })).toBe(
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    );
    expect(resolveTokenOwner({ apiKeyWallet: null, custodyAddress: custody })).toBe(custody);
    expect(resolveTokenOwner({ apiKeyWallet: ' ', custodyAddress: custody })).toBe(custody);
    expect(() => resolveTokenOwner({ apiKeyWallet: '0x12', custodyAddress: custody })).toThrow();
  });

  it('uses a configured custody address over the minter', () => {
    expect(custodyAddressOf({ minterKey: KEY, custodyAddress: CONTRACT })).toBe(
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    );
  });
});

describe('loadMinterKey', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'hallmark-minter-key-'));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads a key file (trailing newline allowed) or an environment value (0x optional)', async () => {
    const file = join(directory, 'minter.key');
    await writeFile(file, `${KEY}\n`);
    expect(await loadMinterKey({ file })).toBe(KEY);
    expect(await loadMinterKey({ env: KEY.slice(2).toUpperCase() })).toBe(KEY);
  });

  it('refuses no source, two sources, and malformed keys without echoing them', async () => {
    await expect(loadMinterKey({})).rejects.toThrow(MinterKeyError);
    await expect(loadMinterKey({ file: 'x', env: KEY })).rejects.toThrow(/give one/);
    await expect(loadMinterKey({ file: join(directory, 'missing') })).rejects.toThrow(/ENOENT/);
    const secretish = `${KEY.slice(0, 60)}zz`;
    const error = await loadMinterKey({ env: secretish }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MinterKeyError);
    expect((error as Error).message).not.toContain(secretish.slice(2, 20));
    await expect(loadMinterKey({ env: `0x${'0'.repeat(64)}` })).rejects.toThrow(/secp256k1/);
    await expect(loadMinterKey({ env: `0x${'f'.repeat(64)}` })).rejects.toThrow(/secp256k1/);
  });
});
