'use strict';
// One HTTP exchange with an instance that never throws and never hangs: a request that gets no
// answer in time, or whose connection fails, reports status 0 with the reason.
const http = require('node:http');

const agents = new Map();

/** Kept-alive sockets per instance; past `maxSockets` requests wait in the agent, and that wait counts. */
function agentFor(instance) {
  if (!agents.has(instance.base)) agents.set(instance.base, new http.Agent({ keepAlive: true, maxSockets: 256 }));
  return agents.get(instance.base);
}

/** @returns {Promise<{status: number, headers: object, text: string, error: string | null}>} */
function send(instance, { method, path, headers = {}, body }, timeoutMs) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const url = new URL(path, instance.base);
    const req = http.request(
      url,
      {
        method,
        headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) },
        agent: agentFor(instance),
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          done({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), error: null }),
        );
        res.on('error', (error) => done({ status: 0, headers: {}, text: '', error: error.code ?? error.message }));
      },
    );
    const timer = setTimeout(() => {
      done({ status: 0, headers: {}, text: '', error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => done({ status: 0, headers: {}, text: '', error: error.code ?? error.message }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function closeAgents() {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

module.exports = { send, closeAgents };
