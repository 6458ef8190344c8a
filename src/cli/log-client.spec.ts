import type { CliIo } from './command';
import { LogClient, LogUnreachableError } from './log-client';

const KEY_SET = { keys: [] };

/** A registry whose answers are given in order, each call counted. */
function registryAnswering(answers: (() => Response)[], env: Record<string, string> = {}) {
  const asked: string[] = [];
  const errors: string[] = [];
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => void errors.push(text),
    cwd: '/',
    env: { REGISTRY_RETRY_DELAY_MS: '1', ...env },
    fetch: (async (url: string) => {
      asked.push(url);
      return answers[Math.min(asked.length - 1, answers.length - 1)]!();
    }) as typeof fetch,
  };
  return { client: new LogClient(io, 'http://registry.test'), asked, errors };
}

const busy = (status: number, retryAfter?: string) => () =>
  new Response('{"status":429}', { status, headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter } });
const keySet = () => new Response(JSON.stringify(KEY_SET), { status: 200, headers: { 'Content-Type': 'application/json' } });

describe('LogClient reads under a rate limit', () => {
  it('waits out 429 and 503 (Retry-After, or a doubling wait without one) and reads the answer', async () => {
    const { client, asked, errors } = registryAnswering([busy(429, '0'), busy(503), busy(429, 'Thu, 01 Jan 1970 00:00:00 GMT'), keySet]);
    expect(await client.keySet()).toEqual(KEY_SET);
    expect(asked).toHaveLength(4);
    expect(errors).toEqual([
      expect.stringContaining('answered HTTP 429: asking again in 0 s'),
      expect.stringContaining('answered HTTP 503'),
      expect.stringContaining('answered HTTP 429'),
    ]);
  });

  it('gives up after six answers of 429, with the status', async () => {
    const { client, asked } = registryAnswering([busy(429, '0')]);
    const error = await client.keySet().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LogUnreachableError);
    expect(error).toMatchObject({ status: 429 });
    expect(asked).toHaveLength(6);
  });

  it('waits at most a minute whatever Retry-After asks', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    try {
      const { client, asked } = registryAnswering([busy(429, '86400'), keySet]);
      const read = client.keySet();
      await jest.advanceTimersByTimeAsync(59_999);
      expect(asked).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(await read).toEqual(KEY_SET);
      expect(asked).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('waits at most a minute however large the retry unit is set, and a unit that is not a number counts as a second', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    try {
      const huge = registryAnswering([busy(503), keySet], { REGISTRY_RETRY_DELAY_MS: '1e9' });
      const read = huge.client.keySet();
      await jest.advanceTimersByTimeAsync(60_000);
      expect(await read).toEqual(KEY_SET);
      const odd = registryAnswering([busy(503), keySet], { REGISTRY_RETRY_DELAY_MS: 'soon' });
      const oddRead = odd.client.keySet();
      await jest.advanceTimersByTimeAsync(999);
      expect(odd.asked).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(await oddRead).toEqual(KEY_SET);
      expect(odd.errors).toEqual([expect.stringContaining('asking again in 1 s')]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('asks once for anything else: a 404 or a 500 is an answer', async () => {
    for (const status of [404, 500]) {
      const { client, asked } = registryAnswering([busy(status), keySet]);
      await expect(client.keySet()).rejects.toMatchObject({ status });
      expect(asked).toHaveLength(1);
    }
  });
});
