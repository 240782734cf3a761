/** keccak256("Transfer(address,address,uint256)"): the ERC-721 event; from zero, a mint. */
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const FROM_NOBODY = `0x${'0'.repeat(64)}`;

/**
 * Every token the contract ever minted, read from the chain itself (raw `eth_getLogs` of its
 * transfers from the zero address), not from Hallmark's rows: a token minted twice shows twice.
 */
export async function mintedTokens(rpcUrl: string, contract: string): Promise<bigint[]> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getLogs',
      params: [
        { address: contract, fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, FROM_NOBODY] },
      ],
    }),
  });
  const { result } = (await res.json()) as { result: Array<{ topics: string[] }> };
  return result.map((log) => BigInt(log.topics[3] ?? '0x0'));
}
