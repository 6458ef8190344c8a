import type { DrainSummary, ReleaseResigner } from './release-resigner';
import { ReleaseResignWorker } from './release-resign-worker';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const IDLE: DrainSummary = { resigned: 0, failed: 0, batches: 0, drains: [] };

/** A stand-in resigner whose passes end when the test says so. */
function scriptedResigner() {
  const passes: { options: Parameters<ReleaseResigner['drain']>[0]; gate: Deferred }[] = [];
  let started = deferred();
  const resigner = {
    drain: jest.fn(async (options: Parameters<ReleaseResigner['drain']>[0]) => {
      const gate = deferred();
      passes.push({ options, gate });
      started.resolve();
      await gate.promise;
      return IDLE;
    }),
  } as unknown as ReleaseResigner;
  return {
    resigner,
    passes,
    /** Resolves once the next pass has begun. */
    nextPass() {
      const waiting = started.promise;
      return waiting.then(() => void (started = deferred()));
    },
  };
}

const OPTIONS = { batchSize: 7, intervalMs: 3_600_000, retireGraceMs: 1234 };
const quiet = () => ({ log: jest.fn(), warn: jest.fn(), error: jest.fn() });

describe('ReleaseResignWorker', () => {
  it('runs a pass at start with its batch size and grace, as the worker', async () => {
    const script = scriptedResigner();
    const worker = new ReleaseResignWorker(script.resigner, OPTIONS, quiet());
    const begun = script.nextPass();
    worker.start();
    await begun;
    expect(script.passes[0]!.options).toMatchObject({ batchSize: 7, graceMs: 1234, via: 'worker' });
    script.passes[0]!.gate.resolve();
    await worker.stop();
    expect(script.passes).toHaveLength(1);
  });

  it('does not overlap passes: a kick during a pass runs exactly one more pass after it', async () => {
    const script = scriptedResigner();
    const worker = new ReleaseResignWorker(script.resigner, OPTIONS, quiet());
    let begun = script.nextPass();
    worker.start();
    await begun;
    worker.kick();
    worker.kick();
    expect(script.passes).toHaveLength(1);
    begun = script.nextPass();
    script.passes[0]!.gate.resolve();
    await begun;
    expect(script.passes).toHaveLength(2);
    script.passes[1]!.gate.resolve();
    await worker.stop();
    expect(script.passes).toHaveLength(2);
  });

  it('asks the pass under way to stop between batches, and stop waits for it', async () => {
    const script = scriptedResigner();
    const worker = new ReleaseResignWorker(script.resigner, OPTIONS, quiet());
    const begun = script.nextPass();
    worker.start();
    await begun;
    const shouldStop = script.passes[0]!.options.shouldStop!;
    expect(shouldStop()).toBe(false);
    let stopped = false;
    const stopping = worker.stop().then(() => void (stopped = true));
    expect(shouldStop()).toBe(true);
    await Promise.resolve();
    expect(stopped).toBe(false);
    script.passes[0]!.gate.resolve();
    await stopping;
    expect(stopped).toBe(true);
    worker.kick();
    expect(script.passes).toHaveLength(1);
  });

  it('logs a failed pass and keeps going on the next kick', async () => {
    const log = quiet();
    const drain = jest.fn().mockRejectedValueOnce(new Error('database went away')).mockResolvedValue(IDLE);
    const worker = new ReleaseResignWorker({ drain } as unknown as ReleaseResigner, OPTIONS, log);
    worker.start();
    await worker.stop();
    expect(log.error).toHaveBeenCalledWith('re-signing releases failed: database went away');
    worker.start();
    await worker.stop();
    expect(drain).toHaveBeenCalledTimes(2);
  });

  it('does nothing when kicked before it was started', () => {
    const script = scriptedResigner();
    new ReleaseResignWorker(script.resigner, OPTIONS, quiet()).kick();
    expect(script.passes).toHaveLength(0);
  });

  it('tells its listener after a pass that re-signed releases, and only then (served signatures changed)', async () => {
    const summaries: DrainSummary[] = [{ ...IDLE, resigned: 3, batches: 1 }, IDLE];
    const afterResign = jest.fn(() => Promise.resolve());
    const worker = new ReleaseResignWorker(
      { drain: () => Promise.resolve(summaries.shift()!) } as unknown as ReleaseResigner,
      OPTIONS,
      quiet(),
      afterResign,
    );
    await worker.runOnce();
    expect(afterResign).toHaveBeenCalledTimes(1);
    await worker.runOnce();
    expect(afterResign).toHaveBeenCalledTimes(1);
  });
});
