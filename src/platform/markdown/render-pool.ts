import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReadmeRenderJob, RenderedReadme } from './render-job';

const WORKER_FILE = join(__dirname, 'render-worker.js');

export interface ReadmeRenderPoolOptions {
  /** Threads at most, started on demand. Default: one less than the cores, at least 1, at most 2. */
  size?: number;
  /** A render that takes longer is abandoned and its thread replaced. */
  timeoutMs?: number;
  /** Old-generation heap cap per thread, in MiB: a render that needs more fails on its own. */
  maxHeapMb?: number;
  /** A thread idle this long is stopped (a parser thread holds ~10 MiB); the next job starts one. */
  idleMs?: number;
  /** The image proxy's key: absolute image URLs are then rewritten to signed `/image-proxy` addresses. */
  imageProxyKey?: Buffer;
}

/** A render that did not finish; the message is written for the publisher. */
export class ReadmeRenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReadmeRenderError';
  }
}

interface QueuedJob {
  job: ReadmeRenderJob;
  resolve(rendered: RenderedReadme): void;
  reject(error: Error): void;
}

interface RunningJob extends QueuedJob {
  id: number;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  running: RunningJob | null;
  idleTimer: NodeJS.Timeout | null;
}

type Reply = { id: number; ok: true; result: RenderedReadme } | { id: number; ok: false; message: string };

function defaultSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

/**
 * Renders READMEs on a few worker threads (render-worker.js), so a large or pathological README
 * never blocks the main event loop: the main thread only copies the markdown over and the HTML
 * back. Jobs queue when every thread is busy. A thread that crashes, runs out of heap or overruns
 * `timeoutMs` fails its own job only and is replaced on the next one. Idle threads do not keep
 * the process alive. Framework-free.
 */
export class ReadmeRenderPool {
  readonly size: number;
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly idleMs: number;
  private readonly imageProxyKey: Buffer | null;
  private readonly slots = new Set<Slot>();
  private readonly queue: QueuedJob[] = [];
  private nextId = 0;
  private closed = false;

  constructor(options: ReadmeRenderPoolOptions = {}) {
    this.size = options.size ?? defaultSize();
    if (!Number.isInteger(this.size) || this.size < 1) throw new RangeError(`size must be a positive integer, got ${this.size}`);
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxHeapMb = options.maxHeapMb ?? 256;
    this.idleMs = options.idleMs ?? 30_000;
    this.imageProxyKey = options.imageProxyKey ?? null;
  }

  /** Threads currently started (busy or idle). */
  get threads(): number {
    return this.slots.size;
  }

  render(job: ReadmeRenderJob): Promise<RenderedReadme> {
    if (this.closed) return Promise.reject(new ReadmeRenderError('the README renderer is shut down'));
    return new Promise<RenderedReadme>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  /** Fails queued and running jobs and stops every thread. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.reject(new ReadmeRenderError('the README renderer is shut down'));
    const slots = [...this.slots];
    for (const slot of slots) this.retire(slot, new ReadmeRenderError('the README renderer is shut down'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const slot = [...this.slots].find((candidate) => candidate.running === null) ?? (this.slots.size < this.size ? this.spawn() : null);
      if (!slot) return;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_FILE, {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
      // The key goes to the thread once, as bytes; no job carries it.
      workerData: { imageProxyKey: this.imageProxyKey ? new Uint8Array(this.imageProxyKey) : null },
    });
    worker.unref();
    const slot: Slot = { worker, running: null, idleTimer: null };
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.retire(
        slot,
        new ReadmeRenderError(outOfMemory ? 'rendering needed more memory than allowed' : 'rendering failed', { cause: error }),
      );
    });
    worker.on('exit', (code) => this.retire(slot, new ReadmeRenderError(`rendering failed (the render thread stopped with code ${code})`)));
    this.slots.add(slot);
    return slot;
  }

  private dispatch(slot: Slot, queued: QueuedJob): void {
    this.stopIdleTimer(slot);
    const id = this.nextId++;
    const timer = setTimeout(() => {
      const limit = this.timeoutMs >= 1000 ? `${this.timeoutMs / 1000} s` : `${this.timeoutMs} ms`;
      this.retire(slot, new ReadmeRenderError(`rendering took longer than ${limit}`));
      void slot.worker.terminate();
    }, this.timeoutMs);
    timer.unref();
    slot.running = { ...queued, id, timer };
    // A job in flight keeps the process alive until it settles; an idle thread does not.
    slot.worker.ref();
    slot.worker.postMessage({ id, job: queued.job });
  }

  private settle(slot: Slot, reply: Reply): void {
    const running = slot.running;
    if (!running || running.id !== reply.id) return;
    clearTimeout(running.timer);
    slot.running = null;
    slot.worker.unref();
    if (reply.ok) running.resolve(reply.result);
    else running.reject(new ReadmeRenderError(`rendering failed: ${reply.message}`));
    this.pump();
    if (slot.running === null) this.startIdleTimer(slot);
  }

  private startIdleTimer(slot: Slot): void {
    this.stopIdleTimer(slot);
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = null;
      if (slot.running !== null || !this.slots.delete(slot)) return;
      void slot.worker.terminate();
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private stopIdleTimer(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  /** Takes a thread out of service (it crashed, stopped or overran), failing the job it held. */
  private retire(slot: Slot, reason: Error): void {
    if (!this.slots.delete(slot)) return;
    this.stopIdleTimer(slot);
    const running = slot.running;
    slot.running = null;
    if (running) {
      clearTimeout(running.timer);
      running.reject(reason);
    }
    slot.worker.unref();
    this.pump();
  }
}
