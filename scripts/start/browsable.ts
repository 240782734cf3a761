/** An address to open in a browser for a server listening on HOST (a wildcard is not one). */
export function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
