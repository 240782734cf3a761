import pg from 'pg';

/** The channel the api_key_changed trigger notifies (migration api_key_changes). */
export const KEY_CHANGES_CHANNEL = 'api_key_changed';

export interface KeyChangeHandlers {
  /** A key was revoked, deleted, or its rate limit changed. */
  onChange(apiKeyId: string): void;
  /**
   * Notifications may have been missed (the connection was lost, or is new): whatever was cached
   * from before must be forgotten. `following` says whether they arrive from now on.
   */
  onGap(following: boolean): void;
}

export interface KeyChangeFollower {
  close(): Promise<void>;
}

/**
 * Follows API key changes on a connection of its own (LISTEN holds it), reopened `retryMs` after
 * it is lost; every (re)connection is reported as a gap, since changes made meanwhile were not
 * heard.
 */
export function followKeyChanges(
  databaseUrl: string,
  handlers: KeyChangeHandlers,
  retryMs = 1_000,
): KeyChangeFollower {
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const lost = (client: pg.Client) => {
    if (current === client) current = undefined;
    handlers.onGap(false);
    client.end().catch(() => undefined);
    if (!closed && retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, retryMs);
      retry.unref();
    }
  };

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      lost(client);
    };
    client.on('error', fail);
    client.on('end', fail);
    client.on('notification', (message) => {
      if (message.channel === KEY_CHANGES_CHANNEL && message.payload)
        handlers.onChange(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
    } catch {
      fail();
      return;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    handlers.onGap(true);
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = undefined;
      // Ending is not a loss: no gap to report, no reconnection.
      client?.removeAllListeners('end');
      client?.removeAllListeners('error');
      client?.on('error', () => undefined);
      await client?.end();
    },
  };
}
