// The only file of the SDK that touches Node: each function imports `node:fs/promises` when it
// is called, so the SDK still loads in browsers, where only paths are unsupported. The comment
// keeps bundlers (webpack, Vite) from trying to bundle the module for the browser.

/**
 * A file as a Blob backed by the file: its bytes are read as it is sent, so a 2 GB video is
 * never held whole; Node (and Deno, Bun) only.
 */
export async function openFileBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  signal?.throwIfAborted();
  const { openAsBlob } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs');
  return await openAsBlob(path);
}

/** Streams a response body into a file, replacing it; Node (and Deno, Bun) only. */
export async function writeStreamToFile(
  path: string,
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): Promise<void> {
  const [{ createWriteStream }, { Readable }, { pipeline }] = await Promise.all([
    import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs'),
    import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:stream'),
    import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:stream/promises'),
  ]);
  await pipeline(
    Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]),
    createWriteStream(path),
    signal ? { signal } : {},
  );
}
