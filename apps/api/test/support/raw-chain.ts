// The chain read and driven by hand-built JSON-RPC, independent of the project's chain code: what
// tests check Hallmark's own records against.

/** keccak256("Transfer(address,address,uint256)"): the ERC-721 event; from zero, a mint. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const FROM_NOBODY = `0x${'0'.repeat(64)}`;

/** One JSON-RPC call; an error answer throws with the method's name. */
export async function rawRpc(
  rpcUrl: string,
  method: string,
  params: unknown[] = [],
): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/**
 * Every token the contract ever minted, read from the chain itself (raw `eth_getLogs` of its
 * transfers from the zero address), not from Hallmark's rows: a token minted twice shows twice.
 */
export async function mintedTokens(rpcUrl: string, contract: string): Promise<bigint[]> {
  const logs = (await rawRpc(rpcUrl, 'eth_getLogs', [
    {
      address: contract,
      fromBlock: '0x0',
      toBlock: 'latest',
      topics: [TRANSFER_TOPIC, FROM_NOBODY],
    },
  ])) as Array<{ topics: string[] }>;
  return logs.map((log) => BigInt(log.topics[3] ?? '0x0'));
}
