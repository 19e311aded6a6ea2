#!/usr/bin/env node
// Where the app's CPU goes, by layer, from V8 CPU profiles of the app under the bench:
//
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_ONLY=record_game npm run bench
//   node bench/profile-layers.mjs /tmp/prof/*.cpuprofile [--requests N]
//
// Each sample's time goes to the layer of the function it was taken in (its self time),
// told by the function's script: Fastify, Nest's pipeline, guards, validation and
// transformation, the rules, SQL building and the unit of work, pg, logging,
// serialisation, Node's own I/O, the garbage collector. Idle time is left out. With
// `--requests N` (the answers the app gave while profiled) it prints the milliseconds per
// answer too. Prints a Markdown table, the layers by their share, and the hottest
// functions of each.

import { readFileSync } from 'node:fs';

/** The layers, first match wins: [name, test on "url functionName"]. */
const LAYERS = [
  ['GC', (u, f) => u === '' && f === '(garbage collector)'],
  ['idle', (u, f) => u === '' && (f === '(idle)' || f === '(program)')],
  // Time inside the write system call, to PostgreSQL and to the clients. The profiler samples
  // wall-clock time: on a busy machine the PostgreSQL backend a write wakes may take the core
  // at once, and the app waits inside the call. Much of this is waiting, not the app's CPU.
  ['socket writes (the write syscall, waits included)', (u, f) => u === '' && (f === 'writeBuffer' || f === 'writev' || f === 'writeUtf8String' || f === 'writeLatin1String')],
  [
    'logging (pino)',
    (u) => /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|on-exit-leak-free)\//.test(u) || /src\/common\/logging/.test(u),
  ],
  [
    'validation (class-validator, class-transformer)',
    (u) => /node_modules\/(class-validator|class-transformer|validator|libphonenumber-js)\//.test(u) || /src\/common\/(validation|validators|body-limits)/.test(u) || /\.dto\.js$/.test(u),
  ],
  [
    'serialisation (fast-json-stringify, JSON)',
    (u, f) => /node_modules\/(fast-json-stringify|fast-uri|json-schema-ref-resolver|ajv)\//.test(u) || ((f === 'stringify' || f === 'parse') && u === ''),
  ],
  ['Nest pipeline (router, guards chain, pipes, interceptors, rxjs)', (u) => /node_modules\/(@nestjs|rxjs|reflect-metadata|path-to-regexp|iterare|uid)\//.test(u)],
  [
    'Fastify (routing, hooks, reply)',
    (u) =>
      /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fastq|toad-cache|process-warning|abstract-logging|rfdc|secure-json-parse|content-type|fast-querystring|ret|safe-regex2|proxy-addr|forwarded|ipaddr\.js)\//.test(
        u,
      ),
  ],
  ['guards and auth (src)', (u) => /src\/(guards|common\/(auth|client-address|request-id))/.test(u)],
  ['the rules (src/domain)', (u) => /src\/domain\//.test(u)],
  ['SQL building and the unit of work (src/db, repositories)', (u) => /src\/db\//.test(u) || /\.repository\.js$/.test(u) || /src\/common\/sql-names/.test(u)],
  ['pg (node-postgres)', (u) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-array|postgres-date|postgres-interval|postgres-bytea|pg-connection-string)\//.test(u)],
  ['the service code (src, the rest)', (u) => /\/dist\/src\//.test(u)],
  ['Node (net, http, streams, timers, crypto)', (u) => u.startsWith('node:') || u === ''],
  ['other packages', () => true],
];

const args = process.argv.slice(2);
let requests = NaN;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--requests') requests = Number(args[++i]);
  else files.push(args[i]);
}
if (files.length === 0) {
  process.stderr.write('usage: node bench/profile-layers.mjs <file.cpuprofile>… [--requests N]\n');
  process.exit(2);
}

const byLayer = new Map(LAYERS.map(([name]) => [name, 0]));
/** @type {Map<string, Map<string, number>>} the hottest functions of each layer */
const hot = new Map(LAYERS.map(([name]) => [name, new Map()]));
let totalUs = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const layerOf = new Map();
  const nameOf = new Map();
  for (const node of profile.nodes) {
    const { url, functionName, lineNumber } = node.callFrame;
    const layer = LAYERS.find(([, test]) => test(url, functionName))[0];
    layerOf.set(node.id, layer);
    const short = url
      .replace(/^.*\/node_modules\//, '')
      .replace(/^.*\/dist\//, '')
      .replace(/^file:\/\//, '');
    nameOf.set(node.id, `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`);
  }
  // timeDeltas[i] is the time before sample i; the sample's node ran for it.
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const us = profile.timeDeltas[i] ?? 0;
    const layer = layerOf.get(id);
    byLayer.set(layer, byLayer.get(layer) + us);
    const fns = hot.get(layer);
    const fn = nameOf.get(id);
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    if (layer !== 'idle') totalUs += us;
  }
}

const rows = [...byLayer].filter(([name, us]) => name !== 'idle' && us > 0).sort((a, b) => b[1] - a[1]);
const perAnswer = Number.isFinite(requests) && requests > 0;
process.stdout.write(`| Layer | CPU (ms) | share |${perAnswer ? ' per answer (ms) |' : ''}\n|---|---|---|${perAnswer ? '---|' : ''}\n`);
for (const [name, us] of rows) {
  process.stdout.write(`| ${name} | ${(us / 1000).toFixed(0)} | ${((100 * us) / totalUs).toFixed(1)} % |${perAnswer ? ` ${(us / 1000 / requests).toFixed(3)} |` : ''}\n`);
}
process.stdout.write(`| all but idle | ${(totalUs / 1000).toFixed(0)} | 100 % |${perAnswer ? ` ${(totalUs / 1000 / requests).toFixed(3)} |` : ''}\n\n`);
for (const [name] of rows.slice(0, 8)) {
  const top = [...hot.get(name)].sort((a, b) => b[1] - a[1]).slice(0, 4);
  process.stdout.write(`${name}: ${top.map(([fn, us]) => `${fn} ${(us / 1000).toFixed(0)} ms`).join('; ')}\n`);
}
