import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  custodyAddressOf,
  type DevChain,
  ensureDevChain,
  type MintedToken,
  NftRegistry,
} from '../src/index.ts';
import { isRunning, waitUntil } from './helpers.ts';

const URI = 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

async function mintOne(chain: DevChain): Promise<MintedToken> {
  const registry = new NftRegistry(chain.options);
  const sent = await registry.sendMint({ to: custodyAddressOf(chain.options), tokenUri: URI });
  return registry.waitForMint(sent.txHash);
}

/** The block number in anvil's state file, or -1 while it is missing or half written. */
async function savedBlockNumber(directory: string): Promise<bigint> {
  try {
    const state = JSON.parse(await readFile(join(directory, 'anvil-state.json'), 'utf8')) as {
      block: { number: string };
    };
    return BigInt(state.block.number);
  } catch {
    return -1n;
  }
}

describe('ensureDevChain', () => {
  let directory: string;
  let running: DevChain | undefined;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'hallmark-dev-chain-'));
  });

  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await rm(directory, { recursive: true, force: true });
  });

  it('deploys once, and keeps contract and tokens across restarts', async () => {
    running = await ensureDevChain({ directory });
    const first = running;
    expect(first.deployed).toBe(true);
    expect(first.options.custodyAddress).toBe(first.node.accounts[0]?.address);
    const { tokenId } = await mintOne(first);
    const mintedAt = await new NftRegistry(first.options).mintedAt(tokenId);
    await first.stop();
    running = undefined;

    running = await ensureDevChain({ directory });
    expect(running.deployed).toBe(false);
    expect(running.options.contractAddress).toBe(first.options.contractAddress);
    const registry = new NftRegistry(running.options);
    expect(await registry.tokenUri(tokenId)).toBe(URI);
    expect(await registry.ownerOf(tokenId)).toBe(first.options.custodyAddress);
    expect(await registry.mintedAt(tokenId)).toBe(mintedAt);
    expect((await mintOne(running)).tokenId).toBe(tokenId + 1n);
  });

  it('keeps a mint once anvil saved it, even when anvil is then killed with SIGKILL', async () => {
    running = await ensureDevChain({ directory });
    const { pid } = running.node;
    const { tokenId, blockNumber } = await mintOne(running);
    // anvil writes its state every second: wait for a write that holds the mint, then kill it.
    const saved = async () => (await savedBlockNumber(directory)) >= blockNumber;
    expect(await waitUntil(saved)).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect(await waitUntil(() => !isRunning(pid))).toBe(true);
    await running.stop();

    running = await ensureDevChain({ directory });
    expect(running.deployed).toBe(false);
    expect(await new NftRegistry(running.options).tokenUri(tokenId)).toBe(URI);
  });

  it('falls back to the state of the previous start when the state file is torn', async () => {
    running = await ensureDevChain({ directory });
    const kept = (await mintOne(running)).tokenId;
    await running.stop();
    running = await ensureDevChain({ directory });
    await mintOne(running);
    await running.stop();
    running = undefined;
    await writeFile(join(directory, 'anvil-state.json'), '{"block":{"number":"0x');

    running = await ensureDevChain({ directory });
    expect(running.stateNotice).toMatch(/restored the copy from the previous start/);
    const registry = new NftRegistry(running.options);
    expect(await registry.tokenUri(kept)).toBe(URI);
    expect(await registry.totalMinted()).toBe(kept);
    expect((await readdir(directory)).some((name) => name.includes('.unreadable-'))).toBe(true);
  });
});
