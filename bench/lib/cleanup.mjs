// Everything the benchmark starts or creates registers how to undo it here; the
// undo steps run once, newest first, on normal exit, on error and on Ctrl-C.

import { log } from './util.mjs';

/** @type {Array<{ label: string, fn: () => Promise<void> | void }>} */
const steps = [];
/** @type {Promise<void> | null} */
let running = null;

/**
 * Registers an undo step. Returns a function that runs the step now (and only
 * once) and takes it off the list, for resources released before the end.
 * @param {string} label  shown when the step fails
 * @param {() => Promise<void> | void} fn
 * @returns {() => Promise<void>}
 */
export function onCleanup(label, fn) {
  const step = { label, fn };
  steps.push(step);
  let done = null;
  return () => {
    if (done) return done;
    const i = steps.indexOf(step);
    if (i >= 0) steps.splice(i, 1);
    done = Promise.resolve().then(fn);
    return done;
  };
}

/**
 * Runs every registered step, newest first. A failing step is reported and the
 * others still run. Calling it again waits for the first run.
 * @returns {Promise<void>}
 */
export function runCleanup() {
  if (running) return running;
  running = (async () => {
    while (steps.length > 0) {
      const step = /** @type {{ label: string, fn: () => Promise<void> | void }} */ (steps.pop());
      try {
        await step.fn();
      } catch (e) {
        log(`cleanup "${step.label}" failed: ${e instanceof Error ? e.message : e}`);
      }
    }
  })();
  return running;
}

let signalled = false;

/** True once SIGINT or SIGTERM has arrived (errors after it are expected noise). */
export const interrupted = () => signalled;

/**
 * On SIGINT/SIGTERM: clean up, then exit 130/143. A second signal exits at once.
 * Also cleans up after an uncaught error.
 */
export function installSignalHandlers() {
  for (const [signal, code] of /** @type {const} */ ([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])) {
    process.on(signal, () => {
      if (signalled) {
        log(`${signal} again: exiting without waiting for cleanup`);
        process.exit(code);
      }
      signalled = true;
      log(`${signal}: stopping the app and cleaning up…`);
      runCleanup().finally(() => process.exit(code));
    });
  }
  const fatal = (/** @type {unknown} */ e) => {
    log(`fatal: ${e instanceof Error ? e.stack : e}`);
    runCleanup().finally(() => process.exit(1));
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
}

/**
 * Runs a benchmark's `main` with the signal handlers installed: a failure (not one that
 * follows a signal) is reported and sets exit status 1; everything is cleaned up after.
 * @param {() => Promise<void>} main
 */
export async function runMain(main) {
  installSignalHandlers();
  try {
    await main();
  } catch (e) {
    if (!interrupted()) {
      log(`FAILED: ${e instanceof Error ? e.stack : e}`);
      process.exitCode = 1;
    }
  } finally {
    await runCleanup();
  }
}
