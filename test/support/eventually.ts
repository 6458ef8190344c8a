/** Polls `probe` until it returns something, or fails after `timeoutMs` saying what it waited for. */
export async function eventually<T>(probe: () => Promise<T | null | undefined>, what = 'the condition', timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
