// A link's signature, an access token or an API key in a log line would let whoever reads the
// logs use them. Errors from libraries quote URLs and headers verbatim, so the redaction runs on
// the final line rather than on fields chosen in advance. A PKCS#11 URI may carry its PIN.
const SECRET_IN_QUERY =
  /([?&](?:signature|x-amz-signature|x-amz-credential|x-amz-security-token|token|pin-value)=)[^&\s"'\\]+/gi;
const BEARER = /(bearer\s+)[^\s"'\\]+/gi;
/** An API key's secret half; its prefix (`hm_xxxxxxxx`) is safe to show and names the key. */
const API_KEY_SECRET = /\b(hm_[a-z2-7]{8})_[A-Za-z0-9_-]{43}/g;
const ACCESS_TOKEN = /\bhmat_[A-Za-z0-9_.-]+/g;

/** The line with every signature, access token and API key secret replaced by `[redacted]`. */
export function redactSecrets(line: string): string {
  return line
    .replace(SECRET_IN_QUERY, '$1[redacted]')
    .replace(BEARER, '$1[redacted]')
    .replace(API_KEY_SECRET, '$1_[redacted]')
    .replace(ACCESS_TOKEN, 'hmat_[redacted]');
}
