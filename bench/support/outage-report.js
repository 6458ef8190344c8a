'use strict';
// Figures of one outage run, per fault window: answers by status, server errors, 503s without
// Retry-After, what each instance logged, and how soon every request kind worked again after a
// store came back.
const { KINDS, succeeded } = require('./outage-load');

const WINDOWS = ['baseline', 'pg-down', 'pg-recovery', 'redis-down', 'redis-recovery'];
const LEVEL_NAMES = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * [name, from, to) in ms since the epoch, from the marks the run made. A request belongs to the
 * window it was answered in: one in flight when PostgreSQL stopped and answered 500 is the
 * restart's doing, not the baseline's.
 */
function windowsOf(marks) {
  const edges = [marks.start, marks.pgStop, marks.pgReady, marks.redisKill, marks.redisReady, marks.end];
  return WINDOWS.map((name, i) => ({ name, from: edges[i], to: i === WINDOWS.length - 1 ? Infinity : edges[i + 1] }));
}

const within = (w, t) => t >= w.from && t < w.to;
const isServerError = (status) => status >= 500 && status !== 503;
const seconds = (ms) => (ms / 1000).toFixed(1);

function parseLog(text) {
  if (!text.startsWith('{')) return { level: null, msg: text, err: null };
  try {
    const entry = JSON.parse(text);
    return { level: LEVEL_NAMES[entry.level] ?? entry.level ?? null, msg: entry.msg ?? '', err: entry.err?.message ?? null };
  } catch {
    return { level: null, msg: text, err: null };
  }
}

/** What one instance wrote in a window: lines, warnings and errors, stack traces, escaped errors. */
function logFigures(instance, w) {
  const figures = { lines: 0, warn: 0, error: 0, stack: 0, uncaught: 0, unhandled: 0 };
  for (const { t, text } of instance.lines) {
    if (!within(w, t)) continue;
    figures.lines++;
    const { level } = parseLog(text);
    if (level === 'warn') figures.warn++;
    if (level === 'error' || level === 'fatal') figures.error++;
    // JSON lines keep a stack as "\n    at ..." inside one line; plain output has one frame a line.
    if (text.includes('    at ')) figures.stack++;
    if (/uncaught/i.test(text)) figures.uncaught++;
    if (/unhandled.rejection/i.test(text)) figures.unhandled++;
  }
  return figures;
}

function histogram(records) {
  const counts = new Map();
  for (const r of records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return (
    [...counts]
      .sort((a, b) => a[0] - b[0])
      .map(([status, n]) => `${status}:${n}`)
      .join(' ') || '(none)'
  );
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : 0;
}

/** Answer times of reads and of writes (the open-loop load shows saturation here first). */
function latencies(records) {
  const of = (list) => {
    const ms = list.map((r) => r.end - r.start).sort((a, b) => a - b);
    return `p50 ${percentile(ms, 0.5)} ms, p99 ${percentile(ms, 0.99)} ms`;
  };
  return `reads ${of(records.filter((r) => r.version === undefined))}; writes ${of(records.filter((r) => r.version !== undefined))}`;
}

/** The most frequent of `items` (strings) with their counts, at most `n`. */
function top(items, n) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n);
}

function failureLabel(r) {
  if (r.status === 0) return `${r.kind} no answer (${r.error})`;
  return `${r.kind} ${r.status}${r.problem ? ` ${r.problem}` : ''}${r.problem ? '' : ` ${(r.detail ?? '').replace(/\s+/g, ' ').slice(0, 120)}`}`;
}

/**
 * How soon after `ready` every kind succeeded again (the first success that ended after it, per
 * kind), and when the last failure of a request sent after `ready` (and before `until`) was sent.
 */
function recovery(records, ready, until) {
  const perKind = {};
  for (const kind of KINDS) {
    const first = records
      .filter((r) => r.kind === kind && r.end >= ready && succeeded(r))
      .reduce((min, r) => Math.min(min, r.end), Infinity);
    perKind[kind] = first === Infinity ? null : (first - ready) / 1000;
  }
  const values = Object.values(perKind);
  const overall = values.includes(null) ? null : Math.max(...values);
  // Answered before the next fault began: a request in flight when it did is that fault's.
  const lastFailure = records
    .filter((r) => r.start >= ready && r.end < until && !succeeded(r))
    .reduce((max, r) => Math.max(max, r.start), -Infinity);
  return { perKind, overall, lastFailure: lastFailure === -Infinity ? null : (lastFailure - ready) / 1000 };
}

/** The printed lines for every window, and the figures the targets are judged on. */
function windowReport(records, instances, marks) {
  const lines = [];
  const figures = {};
  for (const w of windowsOf(marks)) {
    const mine = records.filter((r) => within(w, r.end));
    const errors = mine.filter((r) => isServerError(r.status));
    const bare503 = mine.filter((r) => r.status === 503 && !r.retryAfter);
    const end = w.to === Infinity ? marks.end : w.to;
    lines.push(
      `[${w.name}] ${seconds(w.from - marks.start)}-${seconds(end - marks.start)} s: ${mine.length} requests answered, ${histogram(mine)}`,
    );
    lines.push(`  answer times: ${latencies(mine)}`);
    lines.push(
      `  500s (5xx but 503): ${errors.length}; 503s without Retry-After: ${bare503.length}; no answer: ${mine.filter((r) => r.status === 0).length}`,
    );
    const failures = top(mine.filter((r) => !succeeded(r)).map(failureLabel), 6);
    if (failures.length) lines.push(`  failures: ${failures.map(([label, n]) => `${n}x ${label}`).join('; ')}`);
    const logs = instances.map((instance) => ({ name: instance.name, ...logFigures(instance, w) }));
    lines.push(`  log lines: ${logs.map((l) => `${l.name} ${l.lines} (warn ${l.warn}, error ${l.error})`).join(', ')}`);
    const sum = (key) => logs.reduce((s, l) => s + l[key], 0);
    lines.push(`  stack-trace lines: ${sum('stack')}; uncaught: ${sum('uncaught')}; unhandled rejections: ${sum('unhandled')}`);
    const logged = top(
      instances.flatMap((instance) =>
        instance.lines
          .filter((l) => within(w, l.t))
          .map((l) => parseLog(l.text))
          .filter((e) => e.level === 'error' || e.level === 'fatal' || e.level === null)
          .map((e) => `${instance.name} ${e.level ?? 'raw'}: ${e.msg}${e.err ? ` (${e.err})` : ''}`.slice(0, 220)),
      ),
      4,
    );
    for (const [text, n] of logged) lines.push(`  logged ${n}x ${text}`);
    figures[w.name] = {
      requests: mine,
      errors: errors.length,
      bare503: bare503.length,
      uncaught: sum('uncaught') + sum('unhandled'),
      stack: sum('stack'),
    };
  }
  const pg = recovery(records, marks.pgReady, marks.redisKill);
  const redis = recovery(records, marks.redisReady, Infinity);
  for (const [name, r] of [
    ['db-restart', pg],
    ['redis-restart', redis],
  ]) {
    const kinds = KINDS.map((k) => `${k} ${r.perKind[k] === null ? 'never' : `${r.perKind[k].toFixed(2)} s`}`).join(', ');
    lines.push(`${name}: first success after ready: ${kinds}`);
    lines.push(
      `${name}: last failure of a request sent after ready: ${r.lastFailure === null ? 'none' : `+${r.lastFailure.toFixed(2)} s`}`,
    );
  }
  return { lines, figures, recovery: { pg, redis } };
}

/**
 * The figures each fault is judged on, as [name, value, goal, unit]: a unit marks a ceiling
 * (value <= goal), anything else must equal its goal. `checks`: outage-checks' accounting.
 */
function targetsOf(report, marks, checks, deliveriesLeft, instancesExited) {
  const windows = windowsOf(marks);
  const judged = (names) => {
    const figures = names.map((n) => report.figures[n]);
    const sum = (key) => figures.reduce((s, f) => s + f[key], 0);
    const mine = windows.filter((w) => names.includes(w.name));
    return {
      errors: sum('errors'),
      bare503: sum('bare503'),
      uncaught: sum('uncaught'),
      lost: checks.lost.filter((r) => mine.some((w) => within(w, r.end))).length,
    };
  };
  const targets = [];
  for (const [fault, names, rec] of [
    ['db-restart', ['pg-down', 'pg-recovery'], report.recovery.pg],
    ['redis-restart', ['redis-down', 'redis-recovery'], report.recovery.redis],
  ]) {
    const j = judged(names);
    targets.push(
      [`${fault} 500s`, j.errors, 0],
      [`${fault} 503s without Retry-After`, j.bare503, 0],
      [`${fault} uncaught exceptions`, j.uncaught, 0],
    );
    targets.push([`${fault} lost`, j.lost, 0], [`${fault} recovery`, rec.overall, 3, ' s']);
  }
  targets.push(
    ['baseline 500s', report.figures.baseline.errors, 0],
    ['lost (whole run)', checks.lost.length, 0],
    ['duplicated', checks.duplicated.length, 0],
  );
  targets.push(['race versions with > 1 release', checks.raceOverOne, 0], ['deliveries left queued', deliveriesLeft, 0]);
  targets.push(['acknowledged releases not verifying', checks.unverified.length, 0], ['instances exited', instancesExited, 0]);
  return targets;
}

/** `db-restart 500s ........ 0 (target 0)`; a recovery that never came is `never`. */
function targetLine([name, value, goal, unit]) {
  const shown = value === null ? 'never' : unit ? `${value.toFixed(1)}${unit}` : String(value);
  return `${`${name} `.padEnd(46, '.')} ${shown} (target ${unit ? `<= ${goal}` : goal})`;
}

/** Targets over several runs: counts summed, recoveries at their worst. */
function combinedTargets(runs) {
  return runs[0].map(([name, , goal, unit], k) => {
    const values = runs.map((targets) => targets[k][1]);
    const value = unit ? (values.includes(null) ? null : Math.max(...values)) : values.reduce((s, v) => s + v, 0);
    return [name, value, goal, unit];
  });
}

module.exports = { windowReport, targetsOf, targetLine, combinedTargets };
