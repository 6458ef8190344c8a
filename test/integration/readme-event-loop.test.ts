/**
 * A large, pathological README (about 1 MiB of unclosed image openers, the slowest input the
 * renderer specs know, hundreds of milliseconds of markdown-it on one core) renders off the main
 * thread: while the render pool works on it, the main event loop keeps turning. Rendered on the
 * main thread, the loop could not turn once until the render ended. No clock is read here (a
 * shared CI machine makes durations meaningless); `npm run bench -- readme` prints the figures.
 */
import { NO_REPOSITORY_CONTEXT, README_MAX_LENGTH, ReadmeRenderPool, renderReadme } from '../../src/platform/markdown';

const PATHOLOGICAL = '![a'.repeat(Math.floor((1024 * 1024) / 3));

describe('README rendering and the event loop', () => {
  const pool = new ReadmeRenderPool();
  afterAll(() => pool.close());

  /** How many times the event loop turned while `work` was in progress. */
  async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
    let turns = 0;
    let running = true;
    const spin = () => {
      if (!running) return;
      turns += 1;
      setImmediate(spin);
    };
    setImmediate(spin);
    await work();
    running = false;
    return turns;
  }

  it('keeps the main event loop turning while a ~1 MiB pathological README renders', async () => {
    let html = '';
    const turns = await turnsDuring(async () => {
      html = (await pool.render({ markdown: PATHOLOGICAL, context: { kind: 'none' } })).html;
    });
    expect(html.length).toBeGreaterThan(README_MAX_LENGTH);
    expect(html).toBe(renderReadme(PATHOLOGICAL, NO_REPOSITORY_CONTEXT));
    // Hundreds of milliseconds of rendering elsewhere leave the loop free for thousands of turns.
    expect(turns).toBeGreaterThan(100);
  });

  it('would not: rendered on the main thread, the loop turns at most once', async () => {
    const turns = await turnsDuring(async () => renderReadme(PATHOLOGICAL, NO_REPOSITORY_CONTEXT));
    expect(turns).toBeLessThanOrEqual(1);
  });
});
