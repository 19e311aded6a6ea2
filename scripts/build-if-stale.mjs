// Exits 0 when the build in dist/ is current, 1 when it must be rebuilt: `npm start`
// runs `node scripts/build-if-stale.mjs || npm run build` before starting the app.
//
// The build is current when dist/src/main.js exists and the stamp `npm run build` writes
// last (dist/.build-stamp) is no older than every file under src/ and migrations/ and the
// TypeScript and Nest build settings.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_FOLDERS = ['src', 'migrations'];
const BUILD_SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
const STAMP = 'dist/.build-stamp';
const ENTRY = 'dist/src/main.js';

/** The modification time (ms) of the newest file in `dir` and below; 0 when it holds none. */
function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The modification time (ms) of `file`; 0 when it does not exist. */
const modifiedAt = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

const sources = Math.max(...SOURCE_FOLDERS.map(newestIn), ...BUILD_SETTINGS.map(modifiedAt));
const stamp = statSync(STAMP, { throwIfNoEntry: false });
const current = stamp !== undefined && existsSync(ENTRY) && stamp.mtimeMs >= sources;
process.exit(current ? 0 : 1);
