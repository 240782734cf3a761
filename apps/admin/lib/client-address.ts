/**
 * Set by server.ts on every request to the peer's address (overwriting anything the browser
 * sent), and forwarded to the API as X-Forwarded-For so that the audit log says where a change
 * came from. The API believes it only from addresses in its TRUST_PROXY.
 */
export const CLIENT_ADDRESS_HEADER = 'x-hallmark-client-address';
