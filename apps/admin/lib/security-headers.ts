// The console's answers to a browser: a content security policy with a fresh nonce per request
// (Next.js reads it from the request's own Content-Security-Policy header and puts it on its
// scripts), no framing by any other site, no sniffing, no referrer (status pages carry a token in
// their link), and, in production, HTTPS only for a year.

/** The policy: scripts only of this origin and with this request's nonce; nothing embeds it. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React sets style attributes; no third-party styles are loaded.
    "style-src 'self' 'unsafe-inline'",
    // Job previews are the API's signed links, or an S3 store's presigned ones: other origins.
    // An image, a clip or a recording cannot run script, so any is allowed.
    "img-src 'self' data: blob: http: https:",
    "media-src 'self' http: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(nonce: string, production: boolean): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(nonce),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
