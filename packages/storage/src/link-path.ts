/**
 * The object key in the path of a link the API serves (what follows `/storage/`), percent-decoded;
 * undefined when an escape is malformed (`%zz`, or bytes that are not UTF-8), which no link this
 * package signs can hold: the caller answers a client error instead of failing with a URIError.
 */
export function decodeLinkKey(encodedKey: string): string | undefined {
  try {
    return decodeURIComponent(encodedKey);
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}
