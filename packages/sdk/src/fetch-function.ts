/** The subset of `fetch` the client uses; pass any compatible function (tests, retries, proxies). */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Not `globalThis.fetch` itself: browsers throw "Illegal invocation" when fetch is called
 * detached from `globalThis`, and a late-installed fetch (a test mock) should still be used.
 */
export const globalFetch: FetchFunction = (url, init) => globalThis.fetch(url, init);
