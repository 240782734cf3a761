import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Address, getAddress } from 'viem';
import { type AnvilNode, startAnvil } from './anvil.ts';
import type { ChainOptions } from './chain-options.ts';
import { createChainClient } from './clients.ts';
import { deployProvenanceContract } from './deploy.ts';
import { hallmarkProvenanceDeployedBytecode } from './generated/hallmark-provenance.ts';

export interface DevChainOptions {
  /** Holds the chain's state and the deployment record; one dev chain per folder at a time. */
  directory: string;
  /** Default: a free port. */
  port?: number;
  /** Default 31337. */
  chainId?: number;
}

export interface DevChain {
  node: AnvilNode;
  /** Ready for `NftRegistry`: anvil account #0 is the minter and the custody wallet. */
  options: ChainOptions;
  /** Whether this start deployed the contract (a new folder, a lost state or a changed contract). */
  deployed: boolean;
  /** Set when the saved state could not be read and an older copy (or an empty chain) was used. */
  stateNotice?: string;
  stop(): Promise<void>;
}

interface DeploymentRecord {
  chainId: number;
  contractAddress: Address;
  blockNumber: string;
}

const STATE_FILE = 'anvil-state.json';
const STATE_BACKUP = 'anvil-state.json.bak';
const DEPLOYMENT_FILE = 'deployment.json';

/**
 * The development chain: a local anvil whose state lives in `directory`, so tokens survive
 * restarts, with HallmarkProvenance deployed by account #0 the first time (and again only when
 * the recorded contract is missing or its code changed).
 */
export async function ensureDevChain(options: DevChainOptions): Promise<DevChain> {
  await mkdir(options.directory, { recursive: true });
  const stateNotice = await prepareStateFile(options.directory);
  const node = await startAnvil({
    stateFile: join(options.directory, STATE_FILE),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
  });
  try {
    const minter = node.accounts[0];
    if (!minter) throw new Error('anvil has no dev accounts');
    const rpc = { rpcUrl: node.rpcUrl, chainId: node.chainId };
    let deployment = await reusableDeployment(options.directory, rpc);
    const deployed = deployment === null;
    if (!deployment) {
      const fresh = await deployProvenanceContract({ ...rpc, deployerKey: minter.privateKey });
      deployment = { contractAddress: fresh.contractAddress, blockNumber: fresh.blockNumber };
      await writeDeploymentRecord(options.directory, {
        chainId: node.chainId,
        contractAddress: fresh.contractAddress,
        blockNumber: String(fresh.blockNumber),
      });
    }
    return {
      node,
      options: {
        ...rpc,
        contractAddress: deployment.contractAddress,
        minterKey: minter.privateKey,
        custodyAddress: minter.address,
        deploymentBlock: deployment.blockNumber,
      },
      deployed,
      ...(stateNotice ? { stateNotice } : {}),
      stop: () => node.stop(),
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}

/**
 * anvil rewrites its state file in place, so a node killed mid-write leaves a torn file that it
 * then refuses to load. A readable file is copied aside before each start; a torn one is set
 * aside and the last good copy (the state at the previous start) is used instead.
 */
async function prepareStateFile(directory: string): Promise<string | undefined> {
  const state = join(directory, STATE_FILE);
  const backup = join(directory, STATE_BACKUP);
  const current = await readJson(state);
  if (current === 'missing') return undefined;
  if (current === 'readable') {
    await copyFile(state, backup);
    return undefined;
  }
  const aside = `${state}.unreadable-${Date.now()}`;
  await rename(state, aside);
  if ((await readJson(backup)) === 'readable') {
    await copyFile(backup, state);
    return `the chain state was unreadable (kept as ${aside}); restored the copy from the previous start`;
  }
  return `the chain state was unreadable (kept as ${aside}); started an empty chain`;
}

async function readJson(path: string): Promise<'missing' | 'readable' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    JSON.parse(text);
    return 'readable';
  } catch {
    return 'unreadable';
  }
}

/** The recorded deployment if its contract is on this chain with the current artifact's code. */
async function reusableDeployment(
  directory: string,
  rpc: { rpcUrl: string; chainId: number },
): Promise<{ contractAddress: Address; blockNumber: bigint } | null> {
  let record: DeploymentRecord;
  try {
    record = JSON.parse(
      await readFile(join(directory, DEPLOYMENT_FILE), 'utf8'),
    ) as DeploymentRecord;
  } catch {
    return null;
  }
  if (record.chainId !== rpc.chainId) return null;
  const code = await createChainClient(rpc).getCode({ address: record.contractAddress });
  if (code?.toLowerCase() !== hallmarkProvenanceDeployedBytecode.toLowerCase()) return null;
  return {
    contractAddress: getAddress(record.contractAddress),
    blockNumber: BigInt(record.blockNumber),
  };
}

async function writeDeploymentRecord(directory: string, record: DeploymentRecord): Promise<void> {
  const target = join(directory, DEPLOYMENT_FILE);
  await writeFile(`${target}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  await rename(`${target}.tmp`, target);
}
