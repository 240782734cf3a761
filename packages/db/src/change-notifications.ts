import pg from 'pg';

/**
 * The channel the api_key_changed trigger notifies (migration api_key_changes) with the key's id:
 * a key was revoked, deleted, or its rate limit or hash changed.
 */
export const KEY_CHANGES_CHANNEL = 'api_key_changed';
/**
 * The channel the watermark_job_changed trigger notifies (migration watermark_job_changes) with
 * the job's id: a column of its status view changed, or the job was deleted.
 */
export const JOB_CHANGES_CHANNEL = 'watermark_job_changed';

export interface ChangeHandlers {
  /** A row of `channel`'s table changed; `id` is its id. */
  onChange(channel: string, id: string): void;
  /**
   * Notifications may have been missed (the connection was lost, or is new): whatever was cached
   * from before must be forgotten. `following` says whether they arrive from now on.
   */
  onGap(following: boolean): void;
}

export interface ChangeFollower {
  /**
   * Settles once the first LISTEN connection is open: from then on a change is heard (or, if the
   * connection is lost, reported as a gap). Before it, readers of a cache rely on its TTL alone.
   */
  listening(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Follows the changes notified on `channels`, all on one connection of its own (LISTEN holds it),
 * reopened `retryMs` after it is lost; every (re)connection is reported as a gap, since changes
 * made meanwhile were not heard.
 */
export function followChanges(
  databaseUrl: string,
  channels: readonly string[],
  handlers: ChangeHandlers,
  retryMs = 1_000,
): ChangeFollower {
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  let opened: () => void = () => undefined;
  const firstOpen = new Promise<void>((resolve) => {
    opened = resolve;
  });

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
      if (channels.includes(message.channel) && message.payload)
        handlers.onChange(message.channel, message.payload);
    });
    try {
      await client.connect();
      // Channel names are this module's constants, never input.
      for (const channel of channels) await client.query(`LISTEN ${channel}`);
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
    opened();
  };

  void connect();
  return {
    listening: () => firstOpen,
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
