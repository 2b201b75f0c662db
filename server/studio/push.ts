/**
 * Tells every console, on every API instance, that a document was published
 * (docs/studio.md, "Push"). Each instance learns of a publish three ways, whichever comes
 * first, and tells its own SSE listeners once per generation:
 * - its own publish, at once;
 * - Redis pub/sub when REDIS_URL is set (channel `farm:schemas:published`);
 * - polling the database every second for revisions of a newer generation. Publishes
 *   hand out generations under a row lock, so they commit in generation order and a
 *   poll for "generation > last seen" never skips one (Redis is the fast path, the
 *   database the sure one).
 */
import type { Database } from '../db/database.ts';

export interface PublishedEvent {
  generation: number;
  file: string;
  revision: number;
}

type Listener = (event: PublishedEvent) => void;

export const REDIS_CHANNEL = 'farm:schemas:published';

interface RedisLike {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', fn: (channel: string, message: string) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export class PublishHub {
  private readonly listeners = new Set<Listener>();
  private readonly told = new Set<number>();
  private polledUpTo = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private pub: RedisLike | null = null;
  private sub: RedisLike | null = null;

  constructor(
    private readonly db: Database,
    private readonly opts: { pollMs?: number; redisUrl?: string } = {},
  ) {}

  async start(): Promise<void> {
    const { rows } = await this.db.query<{ g: string | number }>('SELECT generation AS g FROM schema_generation WHERE id = 1');
    this.polledUpTo = Number(rows[0]?.g ?? 0);
    this.timer = setInterval(() => void this.poll(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    if (this.opts.redisUrl) await this.connectRedis(this.opts.redisUrl);
  }

  private async connectRedis(url: string): Promise<void> {
    // Loaded only when configured: an instance without Redis never opens the client.
    const { Redis } = await import('ioredis');
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false } as const;
    const pub = new Redis(url, options) as unknown as RedisLike & { connect(): Promise<void> };
    const sub = new Redis(url, options) as unknown as RedisLike & { connect(): Promise<void> };
    try {
      await pub.connect();
      await sub.connect();
      await sub.subscribe(REDIS_CHANNEL);
      sub.on('message', (_channel, message) => {
        try {
          this.tell(JSON.parse(message) as PublishedEvent);
        } catch {
          // Not ours: ignored.
        }
      });
      this.pub = pub;
      this.sub = sub;
    } catch {
      // Redis unreachable: the database poll still tells every instance.
      pub.disconnect();
      sub.disconnect();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
    await Promise.allSettled([this.pub?.quit(), this.sub?.quit()]);
  }

  /** The generation in the database now. */
  async currentGeneration(): Promise<number> {
    const { rows } = await this.db.query<{ g: string | number }>('SELECT generation AS g FROM schema_generation WHERE id = 1');
    return Number(rows[0]?.g ?? 0);
  }

  listen(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** This instance published: tell its listeners now, and the other instances through Redis. */
  published(event: PublishedEvent): void {
    this.tell(event);
    void this.pub?.publish(REDIS_CHANNEL, JSON.stringify(event)).catch(() => undefined);
  }

  private tell(event: PublishedEvent): void {
    // Told already: by this instance's publish, Redis or an earlier poll.
    if (this.told.has(event.generation) || event.generation <= this.polledUpTo) return;
    this.told.add(event.generation);
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch {
        // One broken listener (a closed socket) does not stop the others.
      }
    }
  }

  /** Revisions of a newer generation than the last poll, in order. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const { rows } = await this.db.query<{ generation: string | number; file: string; revision: number }>(
        'SELECT generation, file, revision FROM schema_revisions WHERE generation > $1 ORDER BY generation',
        [this.polledUpTo],
      );
      for (const r of rows) {
        const event = { generation: Number(r.generation), file: r.file, revision: r.revision };
        this.tell(event);
        this.polledUpTo = Math.max(this.polledUpTo, event.generation);
      }
      for (const g of this.told) if (g <= this.polledUpTo) this.told.delete(g);
    } catch {
      // The database closing under a stopping app: the next poll (if any) tries again.
    } finally {
      this.polling = false;
    }
  }
}
