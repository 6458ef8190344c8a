import {
  NO_REPOSITORY_CONTEXT,
  README_MAX_LENGTH,
  ReadmeRenderError,
  ReadmeRenderPool,
  renderReadme,
  runRenderJob,
  TRUNCATION_NOTICE,
  urlReadmeContext,
} from './index';
import type { ReadmeContextSpec, ReadmeRenderJob } from './index';
import { forgeReadmeContext } from './context';

const forge = { type: 'gitlab', webUrl: 'https://host.example/gitlab', apiUrl: 'https://host.example/gitlab/api/v4' } as const;
const FORGE: ReadmeContextSpec = { kind: 'forge', forge, repoPath: 'group/sub/widget', tag: 'v1.2.0', readmePath: 'docs/README.md' };
const MARKDOWN = '# Widget\n\n![shot](img/a.png) [guide](GUIDE.md) [home](https://example.com) <script>alert(1)</script>\n';
// Half a million table cells: far more tokens than a small heap holds.
const HEAVY = `|${'a|'.repeat(5000)}\n|${'-|'.repeat(5000)}\n${`|${'b|'.repeat(5000)}\n`.repeat(100)}`;

describe('runRenderJob', () => {
  it('renders exactly what renderReadme renders with the context the spec describes', () => {
    expect(runRenderJob({ markdown: MARKDOWN, context: FORGE })).toEqual({
      html: renderReadme(
        MARKDOWN,
        forgeReadmeContext({ forge, repoPath: 'group/sub/widget', tag: 'v1.2.0', readmePath: 'docs/README.md' }),
      ),
      truncated: false,
    });
    expect(runRenderJob({ markdown: MARKDOWN, context: { kind: 'url', url: 'https://docs.example/w/README.md' } }).html).toBe(
      renderReadme(MARKDOWN, urlReadmeContext('https://docs.example/w/README.md')),
    );
    expect(runRenderJob({ markdown: MARKDOWN, context: { kind: 'none' } }).html).toBe(renderReadme(MARKDOWN, NO_REPOSITORY_CONTEXT));
  });

  it('says when the markdown was cut', () => {
    const rendered = runRenderJob({ markdown: 'a'.repeat(README_MAX_LENGTH + 1), context: { kind: 'none' } });
    expect(rendered.truncated).toBe(true);
    expect(rendered.html.endsWith(TRUNCATION_NOTICE)).toBe(true);
    expect(runRenderJob({ markdown: 'a'.repeat(README_MAX_LENGTH), context: { kind: 'none' } }).truncated).toBe(false);
  });
});

describe('ReadmeRenderPool', () => {
  const pools: ReadmeRenderPool[] = [];
  const pool = (options: ConstructorParameters<typeof ReadmeRenderPool>[0]) => {
    const created = new ReadmeRenderPool(options);
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('renders on a worker thread exactly what rendering in-thread gives', async () => {
    const jobs: ReadmeRenderJob[] = [
      { markdown: MARKDOWN, context: FORGE },
      { markdown: MARKDOWN, context: { kind: 'url', url: 'https://docs.example/w/README.md' } },
      { markdown: 'x'.repeat(README_MAX_LENGTH + 10), context: { kind: 'none' } },
    ];
    const renderer = pool({ size: 2 });
    expect(renderer.threads).toBe(0);
    expect(await Promise.all(jobs.map((job) => renderer.render(job)))).toEqual(jobs.map((job) => runRenderJob(job)));
    expect(renderer.threads).toBe(2);
  });

  it('queues jobs past its size and answers each with its own result', async () => {
    const renderer = pool({ size: 1 });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => renderer.render({ markdown: `# ${i}`, context: { kind: 'none' } })),
    );
    expect(results.map((r) => r.html)).toEqual(Array.from({ length: 6 }, (_, i) => `<h1>${i}</h1>\n`));
    expect(renderer.threads).toBe(1);
  });

  it('stops a thread left idle for idleMs and starts a new one for the next job', async () => {
    const renderer = pool({ size: 1, idleMs: 500 });
    await renderer.render({ markdown: '# a', context: { kind: 'none' } });
    expect(renderer.threads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A job inside the idle window keeps the thread and restarts its clock.
    await renderer.render({ markdown: '# b', context: { kind: 'none' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(renderer.threads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(renderer.threads).toBe(0);
    expect((await renderer.render({ markdown: '# c', context: { kind: 'none' } })).html).toBe('<h1>c</h1>\n');
    expect(renderer.threads).toBe(1);
  });

  it('fails a job whose context is invalid, and keeps serving', async () => {
    const renderer = pool({ size: 1 });
    await expect(renderer.render({ markdown: 'x', context: { ...FORGE, tag: '../v1' } as ReadmeContextSpec })).rejects.toThrow(
      /^rendering failed: .*tag/,
    );
    expect((await renderer.render({ markdown: '# ok', context: { kind: 'none' } })).html).toBe('<h1>ok</h1>\n');
  });

  it('fails only the job that runs a thread out of heap, and replaces the thread', async () => {
    const renderer = pool({ size: 1, maxHeapMb: 64 });
    const heavy = renderer.render({ markdown: HEAVY, context: { kind: 'none' } });
    const next = renderer.render({ markdown: '# next', context: { kind: 'none' } });
    await expect(heavy).rejects.toThrow(ReadmeRenderError);
    await expect(heavy).rejects.toThrow('rendering needed more memory than allowed');
    expect((await next).html).toBe('<h1>next</h1>\n');
  });

  it('abandons a job that overruns the time limit and stops its thread', async () => {
    // A thread takes longer than a millisecond just to start.
    const renderer = pool({ size: 1, timeoutMs: 1 });
    await expect(renderer.render({ markdown: '# slow', context: { kind: 'none' } })).rejects.toThrow('rendering took longer than 1 ms');
    expect(renderer.threads).toBe(0);
  });

  it('fails queued jobs on close and refuses new ones', async () => {
    const renderer = pool({ size: 1 });
    const running = expect(renderer.render({ markdown: HEAVY, context: { kind: 'none' } })).rejects.toThrow(
      'the README renderer is shut down',
    );
    const queued = expect(renderer.render({ markdown: '# queued', context: { kind: 'none' } })).rejects.toThrow(
      'the README renderer is shut down',
    );
    await renderer.close();
    await running;
    await queued;
    await expect(renderer.render({ markdown: 'x', context: { kind: 'none' } })).rejects.toThrow('the README renderer is shut down');
    expect(renderer.threads).toBe(0);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new ReadmeRenderPool({ size: 0 })).toThrow(RangeError);
    expect(() => new ReadmeRenderPool({ size: 1.5 })).toThrow(RangeError);
  });
});
