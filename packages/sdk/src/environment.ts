// The client's defaults come from the environment where there is one (Node, Bun, Deno), the way
// the CLI and the README's curl flow take HALLMARK_URL and HALLMARK_API_KEY. Read through
// `globalThis` so that the SDK still loads in a browser, where there is no `process`.

/** Where the API is when neither `baseUrl` nor HALLMARK_URL says: `pnpm start`'s address. */
export const DEFAULT_BASE_URL = 'http://localhost:3000';

interface ProcessLike {
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The variable's value, or undefined when it is unset, empty, or cannot be read. */
export function environmentVariable(name: string): string | undefined {
  try {
    const value = (globalThis as { process?: ProcessLike }).process?.env?.[name];
    return value === undefined || value === '' ? undefined : value;
  } catch {
    // Deno without --allow-env throws on reading the environment: no default then.
    return undefined;
  }
}
