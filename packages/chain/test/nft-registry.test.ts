import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnvilNode,
  ChainError,
  deployProvenanceContract,
  hallmarkProvenanceAbi,
  NftRegistry,
  type SignedMint,
  startAnvil,
} from '../src/index.ts';
import { jsonRpc, REFUSED_RPC_URL } from './helpers.ts';

const CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

/**
 * `tokenURI(uint256)` through a hand-built `eth_call`: selector 0xc87b56dd (the first four bytes
 * of keccak256("tokenURI(uint256)")), the id as one 32-byte word, and the ABI string decoded by
 * hand (offset word, length word, UTF-8 bytes).
 */
async function tokenUriByRawCall(
  rpcUrl: string,
  contract: Address,
  tokenId: bigint,
): Promise<string> {
  const data = `0xc87b56dd${tokenId.toString(16).padStart(64, '0')}`;
  const result = await jsonRpc<string>(rpcUrl, 'eth_call', [{ to: contract, data }, 'latest']);
  const words = result.slice(2);
  const offset = Number.parseInt(words.slice(0, 64), 16) * 2;
  const length = Number.parseInt(words.slice(offset, offset + 64), 16);
  return Buffer.from(words.slice(offset + 64, offset + 64 + length * 2), 'hex').toString('utf8');
}

describe('NftRegistry against a local anvil', () => {
  let node: AnvilNode;
  let contractAddress: Address;
  let deploymentBlock: bigint;
  let registry: NftRegistry;
  let publicClient: PublicClient;
  let minterKey: Hex;
  let holder: Address;

  beforeAll(async () => {
    node = await startAnvil();
    const [minter, first] = node.accounts;
    if (!minter || !first) throw new Error('anvil has too few accounts');
    minterKey = minter.privateKey;
    holder = first.address;
    const deployment = await deployProvenanceContract({
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      deployerKey: minterKey,
    });
    contractAddress = deployment.contractAddress;
    deploymentBlock = deployment.blockNumber;
    registry = new NftRegistry({
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      contractAddress,
      minterKey,
      deploymentBlock,
    });
    publicClient = createPublicClient({ transport: http(node.rpcUrl) });
  });

  afterAll(async () => {
    await node?.stop();
  });

  it('checks that the endpoint is on its chain and the contract exists', async () => {
    await registry.checkConnection();
    const elsewhere = new NftRegistry({ rpcUrl: node.rpcUrl, chainId: 1, contractAddress });
    await expect(elsewhere.checkConnection()).rejects.toMatchObject({ code: 'misconfigured' });
  });

  it('mints a token whose tokenURI, read by a raw eth_call, is ipfs://<cid>', async () => {
    const before = await registry.totalMinted();
    const sent = await registry.sendMint({ to: holder, tokenUri: `ipfs://${CID}` });
    const minted = await registry.waitForMint(sent.txHash);

    expect(minted.tokenId).toBe(before + 1n);
    expect(minted.owner).toBe(holder);
    expect(minted.txHash).toBe(sent.txHash);
    expect(minted.gasUsed).toBeGreaterThan(0n);
    expect(minted.effectiveGasPrice).toBeGreaterThan(0n);
    expect(minted.feeWei).toBe(minted.gasUsed * minted.effectiveGasPrice);
    expect(Math.abs(minted.blockTime - Date.now() / 1000)).toBeLessThan(120);

    expect(await tokenUriByRawCall(node.rpcUrl, contractAddress, minted.tokenId)).toBe(
      `ipfs://${CID}`,
    );
    expect(await registry.tokenUri(minted.tokenId)).toBe(`ipfs://${CID}`);
    expect(await registry.ownerOf(minted.tokenId)).toBe(holder);
    expect(await registry.mintedAt(minted.tokenId)).toBe(minted.blockTime);
  });

  it('shows a transfer made on chain by the holder as the new owner', async () => {
    const minted = await registry.waitForMint(
      (await registry.sendMint({ to: holder, tokenUri: `ipfs://${CID}` })).txHash,
    );
    const holderKey = node.accounts[1]?.privateKey;
    const buyer = node.accounts[2]?.address;
    if (!holderKey || !buyer) throw new Error('anvil has too few accounts');
    const holderWallet = createWalletClient({
      account: privateKeyToAccount(holderKey),
      transport: http(node.rpcUrl),
    });
    const transfer = await holderWallet.writeContract({
      chain: null,
      address: contractAddress,
      abi: hallmarkProvenanceAbi,
      functionName: 'transferFrom',
      args: [holder, buyer, minted.tokenId],
    });
    await publicClient.waitForTransactionReceipt({ hash: transfer, pollingInterval: 50 });

    expect(await registry.ownerOf(minted.tokenId)).toBe(buyer);
    expect(await registry.mintedAt(minted.tokenId)).toBe(minted.blockTime);
  });

  it('answers null for a token that does not exist', async () => {
    expect(await registry.ownerOf(999_999n)).toBeNull();
    expect(await registry.tokenUri(999_999n)).toBeNull();
    expect(await registry.mintedAt(999_999n)).toBeNull();
  });

  it('finds a sent mint by its hash once mined, and looking again mints nothing', async () => {
    const before = await registry.totalMinted();
    await jsonRpc(node.rpcUrl, 'evm_setAutomine', [false]);
    try {
      const sent = await registry.sendMint({ to: holder, tokenUri: `ipfs://${CID}` });
      expect(await registry.findMintByTxHash(sent.txHash)).toBeNull();
      await expect(registry.waitForMint(sent.txHash, { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'mint_timeout',
        retryable: true,
      });
      // A worker that restarts re-sends the recorded bytes: the node already has them.
      expect(await registry.rebroadcast(sent.rawTransaction)).toBe(sent.txHash);
      await jsonRpc(node.rpcUrl, 'evm_mine', []);

      const found = await registry.findMintByTxHash(sent.txHash);
      expect(found?.tokenId).toBe(before + 1n);
      expect(await registry.findMintByTxHash(sent.txHash)).toEqual(found);
      expect(await registry.rebroadcast(sent.rawTransaction)).toBe(sent.txHash);
      expect(await registry.totalMinted()).toBe(before + 1n);
    } finally {
      await jsonRpc(node.rpcUrl, 'evm_setAutomine', [true]);
    }
  });

  it('mints once when the process dies between recording the signed mint and sending it', async () => {
    const before = await registry.totalMinted();
    let recorded: SignedMint | undefined;
    await expect(
      registry.sendMint({
        to: holder,
        tokenUri: `ipfs://${CID}`,
        beforeBroadcast: async (signed) => {
          recorded = signed;
          throw new Error('worker killed');
        },
      }),
    ).rejects.toThrow('worker killed');
    if (!recorded) throw new Error('nothing recorded');
    expect(await registry.findMintByTxHash(recorded.txHash)).toBeNull();
    expect(await registry.totalMinted()).toBe(before);

    // The restarted worker: nothing found by hash, so it sends the recorded bytes (twice here).
    await registry.rebroadcast(recorded.rawTransaction);
    await registry.rebroadcast(recorded.rawTransaction);
    const minted = await registry.waitForMint(recorded.txHash);
    expect(minted.tokenId).toBe(before + 1n);
    expect(await registry.totalMinted()).toBe(before + 1n);
  });

  it('reports nonce_conflict for a recorded mint whose nonce another transaction used', async () => {
    let recorded: SignedMint | undefined;
    await expect(
      registry.sendMint({
        to: holder,
        tokenUri: 'ipfs://never-sent',
        beforeBroadcast: async (signed) => {
          recorded = signed;
          throw new Error('worker killed');
        },
      }),
    ).rejects.toThrow('worker killed');
    if (!recorded) throw new Error('nothing recorded');
    const other = await registry.sendMint({ to: holder, tokenUri: `ipfs://${CID}` });
    expect(other.nonce).toBe(recorded.nonce);
    await registry.waitForMint(other.txHash);

    await expect(registry.rebroadcast(recorded.rawTransaction)).rejects.toMatchObject({
      code: 'nonce_conflict',
      retryable: true,
    });
  });

  it('serialises concurrent mints so each gets its own nonce', async () => {
    const sent = await Promise.all(
      [1, 2, 3].map((n) => registry.sendMint({ to: holder, tokenUri: `ipfs://${CID}/${n}` })),
    );
    const minted = await Promise.all(sent.map((mint) => registry.waitForMint(mint.txHash)));
    expect(new Set(minted.map((token) => token.tokenId)).size).toBe(3);
  });

  it('refuses a key that is not the minter with mint_reverted, before any fee', async () => {
    const stranger = node.accounts[3];
    if (!stranger) throw new Error('anvil has too few accounts');
    const impostor = new NftRegistry({
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      contractAddress,
      minterKey: stranger.privateKey,
    });
    const error = await impostor.sendMint({ to: holder, tokenUri: 'ipfs://x' }).catch((e) => e);
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ code: 'mint_reverted', retryable: false });
    expect((error as ChainError).message).toContain('OwnableUnauthorizedAccount');
  });

  it('reports a mint that reverted on chain as mint_reverted', async () => {
    const stranger = node.accounts[3];
    if (!stranger) throw new Error('anvil has too few accounts');
    // Sent with a fixed gas limit, so nothing simulates it first: it is mined and reverts.
    const wallet = createWalletClient({
      account: privateKeyToAccount(stranger.privateKey),
      transport: http(node.rpcUrl),
    });
    const txHash = await wallet.sendTransaction({
      chain: null,
      to: contractAddress,
      gas: 300_000n,
      data: encodeFunctionData({
        abi: hallmarkProvenanceAbi,
        functionName: 'mint',
        args: [holder, 'ipfs://x'],
      }),
    });
    await expect(registry.waitForMint(txHash)).rejects.toMatchObject({ code: 'mint_reverted' });
    await expect(registry.findMintByTxHash(txHash)).rejects.toMatchObject({
      code: 'mint_reverted',
    });
  });

  it('reports insufficient_funds when the minter cannot pay the gas', async () => {
    const emptyKey = generatePrivateKey();
    const deployment = await deployProvenanceContract({
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      deployerKey: minterKey,
      minter: privateKeyToAccount(emptyKey).address,
    });
    const broke = new NftRegistry({
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      contractAddress: deployment.contractAddress,
      minterKey: emptyKey,
    });
    await expect(broke.sendMint({ to: holder, tokenUri: 'ipfs://x' })).rejects.toMatchObject({
      code: 'insufficient_funds',
      retryable: true,
    });
  });

  it('reports rpc_unreachable when nothing listens at the RPC URL', async () => {
    const offline = new NftRegistry({
      rpcUrl: REFUSED_RPC_URL,
      chainId: node.chainId,
      contractAddress,
      minterKey,
      retryCount: 0,
    });
    await expect(offline.sendMint({ to: holder, tokenUri: 'ipfs://x' })).rejects.toMatchObject({
      code: 'rpc_unreachable',
      retryable: true,
    });
    await expect(offline.ownerOf(1n)).rejects.toMatchObject({ code: 'rpc_unreachable' });
    await expect(offline.findMintByTxHash(`0x${'ab'.repeat(32)}`)).rejects.toMatchObject({
      code: 'rpc_unreachable',
    });
  });
});
