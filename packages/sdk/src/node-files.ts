// The only file of the SDK that touches Node: each function imports `node:fs/promises` when it
// is called, so the SDK still loads in browsers, where only paths are unsupported. The comment
// keeps bundlers (webpack, Vite) from trying to bundle the module for the browser.

/** Reads a whole file; Node (and Deno, Bun) only. */
export async function readFileBytes(path: string, signal?: AbortSignal): Promise<Uint8Array> {
  const { readFile } = await import(
    /* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises'
  );
  return await readFile(path, signal ? { signal } : {});
}

/** Writes a whole file, replacing it; Node (and Deno, Bun) only. */
export async function writeFileBytes(
  path: string,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<void> {
  const { writeFile } = await import(
    /* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises'
  );
  await writeFile(path, bytes, signal ? { signal } : {});
}
