'use strict';
// One README render thread of ReadmeRenderPool (render-pool.ts): markdown-it and sanitize-html
// run synchronously, and a pathological README takes hundreds of milliseconds, which must not
// stall HTTP handling on the main event loop.
// Plain JavaScript because worker threads load files with Node's own loader (no TS transform).
// Built, the compiled render-job.js sits beside this file in dist/. Run from the TypeScript
// sources (Jest, scripts), it does not, so the project's swc transform is registered first: the
// worker then always renders with the sources it was started from, never a stale build.
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');

// A computed path, so the TypeScript build does not pull the script into dist/.
if (!fs.existsSync(path.join(__dirname, 'render-job.js'))) require(path.join(__dirname, '..', '..', '..', 'scripts', 'ts-register.js'));
const { runRenderJob } = require('./render-job');

const imageProxyKey = workerData && workerData.imageProxyKey ? Buffer.from(workerData.imageProxyKey) : null;

parentPort.on('message', ({ id, job }) => {
  let reply;
  try {
    reply = { id, ok: true, result: runRenderJob(job, imageProxyKey) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
});
