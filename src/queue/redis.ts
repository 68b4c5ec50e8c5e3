// The Redis server of a shared job queue, from `--queue redis://[:password@]host:port[/db]`: the
// connection options BullMQ and our own connections take, the URL as shown (no password), and
// the check at start that it answers — unreachable → the command exits 2 saying so.

import { Redis } from 'ioredis';
import { ConfigError } from '../config.js';

export interface QueueServer {
  /** The URL with its password masked, for logs and GET /api/health. */
  shown: string;
  /** What BullMQ's and our own connections are given. */
  options: ServerOptions;
}

interface ServerOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
}

export function queueServer(url: string): QueueServer {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`--queue must be a URL redis://[:password@]host:port[/db], got "${url}"`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new ConfigError(`--queue must be a redis:// or rediss:// URL, got "${parsed.protocol}"`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new ConfigError(`--queue: the database after the port must be a number, got "${db}"`);
  const options: ServerOptions = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: Number(parsed.port || 6379),
    ...(parsed.username !== '' && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password !== '' && { password: decodeURIComponent(parsed.password) }),
    ...(db !== '' && { db: Number(db) }),
    ...(parsed.protocol === 'rediss:' && { tls: {} }),
  };
  const shown = new URL(parsed.href);
  if (shown.password !== '') shown.password = '***';
  return { shown: shown.href, options };
}

/** A connection of our own (cancel signals, callbacks): reconnects by itself, fails commands at once while down. */
export function connect(server: QueueServer): Redis {
  const redis = new Redis({ ...server.options, enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: (times) => Math.min(times * 200, 2_000) });
  // ioredis reports every failed reconnection as an 'error'; the state is in GET /api/health.
  redis.on('error', () => {});
  return redis;
}

/** Resolves once the server answers PING; else a ConfigError saying it cannot be reached (exit 2). */
export async function checkReachable(server: QueueServer): Promise<void> {
  const probe = new Redis({ ...server.options, lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than connect()'s "Connection is closed".
  let cause: Error | undefined;
  probe.on('error', (err: Error) => (cause ??= err));
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    const why = (cause ?? (err as Error)).message;
    throw new ConfigError(`the job queue's Redis at ${server.shown} cannot be reached (${why}); start it, or run without --queue`);
  } finally {
    probe.disconnect();
  }
}
