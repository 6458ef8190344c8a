/**
 * Runs `beat` every `intervalMs` until stopped, never two at once; a failed beat is reported and
 * the next one tries again. Keeps a lease alive while long work holds it.
 */
export function startHeartbeat(beat: () => Promise<unknown>, intervalMs: number, onError: (error: Error) => void): { stop(): void } {
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    beat()
      .catch((error: Error) => onError(error))
      .finally(() => (beating = false));
  }, intervalMs);
  // The work it accompanies keeps the process alive; the heartbeat itself must not.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
