'use strict';
// README render benchmark: pathological ~1 MiB READMEs rendered by the compiled renderer on the
// main thread and through ReadmeRenderPool (worker threads), with the main thread's event-loop
// delay sampled meanwhile (perf_hooks.monitorEventLoopDelay). Figures:
//  - time on the pool as a ratio to rendering in-thread (the cost of copying markdown and HTML
//    across threads; target >= 0.75);
//  - the main thread's worst event-loop delay while the pool renders (target < 50 ms; the
//    sampling resolution, 5 ms, is included), against the stall of rendering in-thread.
// Needs the build (npm run bench does it).
const path = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const README = path.join(__dirname, '..', 'dist', 'platform', 'markdown', 'index.js');
const MiB = 1024 * 1024;
const REPEATS = 3;

const CASES = [
  ['image openers', '![a'.repeat(Math.floor(MiB / 3))],
  ['nested brackets', '['.repeat(MiB)],
  ['table cells', `|${'a|'.repeat(5000)}\n|${'-|'.repeat(5000)}\n${`|${'b|'.repeat(5000)}\n`.repeat(100)}`],
  ['mixed inline', '[x](https://a.example/ "t") *a* `c` www.x.y <b> &amp; ![i](i.png)\n'.repeat(14000)],
];

const CONTEXT = {
  kind: 'forge',
  forge: { type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' },
  repoPath: 'acme/widget',
  tag: 'v1.0.0',
  readmePath: 'README.md',
};

/** Runs `work` with the event-loop delay sampled; returns its wall time and the worst delay, in ms. */
async function sampled(work) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // Sampling starts at the timer's first run; work that begins before it would go unseen.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const started = process.hrtime.bigint();
  await work();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // A stall is recorded when the sampling timer finally runs.
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  return { ms, maxDelayMs: delay.max / 1e6 };
}

const pad = (text, width) => text.padEnd(width);

module.exports = async function run() {
  const { ReadmeRenderPool, runRenderJob } = require(README);
  const pool = new ReadmeRenderPool();
  const lines = [
    `pool: ${pool.size} render thread(s); best of ${REPEATS}; each README ${(CASES[0][1].length / MiB).toFixed(2)}-${(CASES[2][1].length / MiB).toFixed(2)} MiB`,
  ];
  try {
    const cold = await sampled(() => pool.render({ markdown: '# warm up', context: CONTEXT }));
    lines.push(`${pad('first render (thread start)', 34)}${cold.ms.toFixed(0)} ms, main-thread max delay ${cold.maxDelayMs.toFixed(1)} ms`);
    let worstDelay = 0;
    for (const [name, markdown] of CASES) {
      let inThread = { ms: Infinity, maxDelayMs: 0 };
      let pooled = { ms: Infinity, maxDelayMs: 0 };
      for (let i = 0; i < REPEATS; i++) {
        const a = await sampled(async () => runRenderJob({ markdown, context: CONTEXT }));
        if (a.ms < inThread.ms) inThread = a;
        const b = await sampled(() => pool.render({ markdown, context: CONTEXT }));
        if (b.ms < pooled.ms) pooled = { ms: b.ms, maxDelayMs: Math.max(pooled.maxDelayMs, b.maxDelayMs) };
        else pooled.maxDelayMs = Math.max(pooled.maxDelayMs, b.maxDelayMs);
      }
      worstDelay = Math.max(worstDelay, pooled.maxDelayMs);
      lines.push(
        `${pad(`readme render, ${name}`, 34)}in-thread ${inThread.ms.toFixed(0)} ms (stalls the loop ${inThread.maxDelayMs.toFixed(0)} ms); ` +
          `pool ${pooled.ms.toFixed(0)} ms, max delay ${pooled.maxDelayMs.toFixed(1)} ms  ratio ${(inThread.ms / pooled.ms).toFixed(2)} (target >= 0.75)`,
      );
    }
    const concurrent = await sampled(() => Promise.all(CASES.map(([, markdown]) => pool.render({ markdown, context: CONTEXT }))));
    worstDelay = Math.max(worstDelay, concurrent.maxDelayMs);
    lines.push(
      `${pad('all four at once on the pool', 34)}${concurrent.ms.toFixed(0)} ms, max delay ${concurrent.maxDelayMs.toFixed(1)} ms`,
    );
    lines.push(`${pad('main-thread event-loop delay', 34)}worst ${worstDelay.toFixed(1)} ms while the pool renders (target < 50 ms)`);
  } finally {
    await pool.close();
  }
  return lines;
};

if (require.main === module) {
  module.exports().then(
    (lines) => lines.forEach((line) => console.log(line)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
