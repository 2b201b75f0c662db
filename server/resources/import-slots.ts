/**
 * At most N imports at once per server, each reading its file in a worker thread
 * (docs/import.md, "Limits"). A file is inflated and parsed off the event loop, so the
 * other requests keep their latency while it is read; an import that finds every slot
 * taken is told to wait (42901) before its file is looked at. Each slot keeps its own
 * worker, started on first use and kept warm; a read past the time-out, or a worker that
 * runs out of its memory, ends that worker (the next read starts a fresh one).
 */
import { Worker } from 'node:worker_threads';
import { ApiError, business, Status } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { ImportFileError, type Cell } from './import-file.ts';
import type { ReaderReply } from './import-worker.ts';
import { msg } from './messages.ts';

const WORKER_URL = new URL('./import-worker-boot.mjs', import.meta.url);
/** The heap of one reader: a file within the limits needs a fraction of it. */
const WORKER_HEAP_MB = 256;

class ReaderWorker {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, (r: ReaderReply | Error) => void>();

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    const worker = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (m: ReaderReply | { ready: true }) => {
        if ('ready' in m) return resolve(worker);
        this.waiting.get(m.id)?.(m);
        this.waiting.delete(m.id);
      });
      const fail = (err: Error) => {
        reject(err);
        for (const done of this.waiting.values()) done(err);
        this.waiting.clear();
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the import reader exited (${code})`)));
    });
    return this.ready;
  }

  async read(bytes: Buffer, timeoutMs: number): Promise<Cell[][]> {
    const worker = await this.start();
    const id = ++this.seq;
    // A reply that comes after the deadline is late even when this thread, busy, ran the timer
    // later than the reply: the read took longer than allowed either way.
    const deadline = performance.now() + timeoutMs;
    const reply = await new Promise<ReaderReply | Error | 'timeout'>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        void worker.terminate();
        resolve('timeout');
      }, timeoutMs);
      this.waiting.set(id, (r) => {
        clearTimeout(timer);
        resolve(performance.now() > deadline ? 'timeout' : r);
      });
      // A copy the worker owns: the request's buffer may be a slice of a shared pool.
      const copy = new Uint8Array(bytes);
      worker.postMessage({ id, bytes: copy }, [copy.buffer]);
    });
    if (reply === 'timeout') {
      const params = { seconds: Math.round(timeoutMs / 1000) };
      throw business(msg['import.readTimeout'], params, (l: Lang) => [{ field: 'content', message: t(l, msg['import.readTimeout'], params) }]);
    }
    // A worker past its heap limit exits: the file was not a spreadsheet this reads.
    if (reply instanceof Error) throw new ImportFileError('unreadable');
    if ('refusal' in reply) throw new ImportFileError(reply.refusal.reason, reply.refusal.params);
    if ('failure' in reply) throw new Error(reply.failure);
    return reply.rows as Cell[][];
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }
}

export interface ImportSlot {
  /** The file's rows, read in this slot's worker. */
  read(bytes: Buffer): Promise<Cell[][]>;
  release(): void;
}

export class ImportSlots {
  private readonly idle: ReaderWorker[] = [];
  private readonly all: ReaderWorker[] = [];
  private taken = 0;

  constructor(
    readonly limit: number,
    readonly readTimeoutMs: number,
  ) {}

  /** Slots taken now (the health of a busy server; a test waits until an import holds one). */
  get inUse(): number {
    return this.taken;
  }

  /** A slot, or the 42901 that tells the caller to wait. */
  acquire(): ImportSlot {
    if (this.taken >= this.limit) throw new ApiError(Status.TOO_MANY, msg['import.busy'], { limit: this.limit });
    this.taken++;
    let reader = this.idle.pop();
    if (!reader) {
      reader = new ReaderWorker();
      this.all.push(reader);
    }
    const own = reader;
    let released = false;
    return {
      read: (bytes) => own.read(bytes, this.readTimeoutMs),
      release: () => {
        if (released) return;
        released = true;
        this.taken--;
        this.idle.push(own);
      },
    };
  }

  /** Starts a reader ahead of the first import (a bench, a test that times the first read). */
  async warm(): Promise<void> {
    const slot = this.acquire();
    try {
      await slot.read(Buffer.from('a\n'));
    } finally {
      slot.release();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((r) => r.close()));
  }
}

const perServer = new WeakMap<object, ImportSlots>();

/** The slots of one server (keyed by its config object, one per app). */
export function importSlotsOf(config: { importConcurrency: number; importReadTimeoutMs: number }): ImportSlots {
  let slots = perServer.get(config);
  if (!slots) {
    slots = new ImportSlots(config.importConcurrency, config.importReadTimeoutMs);
    perServer.set(config, slots);
  }
  return slots;
}
