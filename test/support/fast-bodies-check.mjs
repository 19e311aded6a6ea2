// Holds the hot bodies' own checks (plainStartGame, plainAction in src/tables/tables.dto.ts)
// to class-validator on generated bodies, in the built app (dist/): every body a check
// accepts must be accepted by the full pipeline and give a deep-equal instance of the same
// class. Prints one JSON line: the counts and the first failures. Run by
// test/fast-bodies.e2e-spec.ts; `node test/support/fast-bodies-check.mjs [cases]` alone.
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { StrictValidationPipe } = require('../../dist/src/common/validation.js');
const { ActionDto, StartGameDto, plainAction, plainStartGame } = require('../../dist/src/tables/tables.dto.js');
const { mulberry32 } = require('../../dist/src/domain/tournament.js');

/** Seeded, so a failure names a case that can be run again. */
const random = (seed) => mulberry32(seed >>> 0);

const ID = '01a24f7d-2fad-75aa-929c-a93cc4fada9a';
const VALUES = [
  ID,
  ID.toUpperCase(),
  '01a24f7d-2fad-05aa-929c-a93cc4fada9a', // version 0
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '',
  0,
  1,
  7,
  15,
  16,
  64,
  65,
  -1,
  1.5,
  '3',
  true,
  false,
  null,
  [],
  [ID],
  [ID, 'x'],
  Array.from({ length: 13 }, () => ID),
  {},
  { type: 'take' },
  'single',
  'gammon',
  'backgammon',
  'mother',
  'draw',
  'oin',
  'plenty',
];
const TYPES = ['double', 'take', 'pass', 'beaver', 'raccoon', 'finish', 'resign-refused', 'bogus', 'constructor', 'toString', 3, null];
const FIELDS = ['by', 'cubes', 'cube', 'winner', 'result', 'checkersLeft', 'resigned', 'offeredBy', 'note', 'constructor'];

function action(r) {
  if (r() < 0.03) return VALUES[Math.floor(r() * VALUES.length)];
  const a = {};
  if (r() < 0.95) a.type = TYPES[Math.floor(r() * TYPES.length)];
  for (const f of FIELDS) {
    if (r() < (f === 'note' || f === 'constructor' ? 0.02 : 0.25)) {
      // Mostly the right kind of value for the field, so that valid bodies are common.
      a[f] = r() < 0.6 ? right(f, r) : VALUES[Math.floor(r() * VALUES.length)];
    }
  }
  return a;
}

function right(field, r) {
  switch (field) {
    case 'cubes':
      // Now and then at the bound (12) or just past it.
      return Array.from({ length: r() < 0.5 ? 12 + Math.floor(r() * 2) : Math.floor(r() * 3) }, () => ID);
    case 'result':
      return ['single', 'gammon', 'backgammon', 'draw'][Math.floor(r() * 4)];
    case 'checkersLeft':
      // Now and then just outside 1–15.
      return r() < 0.2 ? [0, 16][Math.floor(r() * 2)] : 1 + Math.floor(r() * 15);
    case 'resigned':
      return r() < 0.5;
    default:
      return ID;
  }
}

function body(r) {
  const b = {};
  if (r() < 0.9) b.actions = r() < 0.02 ? VALUES[Math.floor(r() * VALUES.length)] : Array.from({ length: Math.floor(r() * 4) }, () => action(r));
  if (r() < 0.3) b.automaticDoubles = r() < 0.5 ? Math.floor(r() * 67) - 1 : VALUES[Math.floor(r() * VALUES.length)];
  if (r() < 0.03) b.extra = 1;
  return b;
}

const full = new StrictValidationPipe({ fastPaths: false });
const withFast = new StrictValidationPipe();

async function verdict(metatype, value) {
  try {
    return { ok: true, dto: await full.transform(structuredClone(value), { type: 'body', metatype }) };
  } catch (e) {
    return { ok: false, code: e?.code ?? String(e) };
  }
}

const sameInstance = (a, b) =>
  Object.getPrototypeOf(a) === Object.getPrototypeOf(b) &&
  isDeepStrictEqual(a, b) &&
  (a.actions ?? []).every((x, i) => Object.getPrototypeOf(x) === ActionDto.prototype && Object.getPrototypeOf(b.actions[i]) === ActionDto.prototype);

const cases = Number(process.argv[2] ?? 6000);
const failures = [];
const counts = { bodies: 0, bodiesValid: 0, bodiesFast: 0, actions: 0, actionsValid: 0, actionsFast: 0 };

let r = random(20261207);
for (let i = 0; i < cases; i++) {
  const b = body(r);
  const fast = plainStartGame(structuredClone(b));
  const v = await verdict(StartGameDto, b);
  counts.bodies++;
  if (v.ok) counts.bodiesValid++;
  if (fast !== null) {
    counts.bodiesFast++;
    if (!v.ok || !sameInstance(fast, v.dto)) failures.push({ kind: 'body', case: i, body: b, full: v.ok ? v.dto : v.code, fast });
  }
}
r = random(7);
for (let i = 0; i < cases; i++) {
  const a = action(r);
  if (typeof a !== 'object' || a === null || Array.isArray(a)) continue;
  const fast = plainAction(structuredClone(a));
  const v = await verdict(ActionDto, a);
  counts.actions++;
  if (v.ok) counts.actionsValid++;
  if (fast !== null) {
    counts.actionsFast++;
    if (!v.ok || !sameInstance(fast, v.dto)) failures.push({ kind: 'action', case: i, action: a, full: v.ok ? v.dto : v.code, fast });
  }
}

// Through the pipe: a valid body is answered by the check, an invalid one refused as before.
const game = {
  actions: [
    { type: 'double', by: ID },
    { type: 'take', by: ID },
    { type: 'finish', winner: ID, result: 'gammon' },
  ],
};
const piped = await withFast.transform(structuredClone(game), { type: 'body', metatype: StartGameDto });
if (!sameInstance(piped, plainStartGame(game))) failures.push({ kind: 'pipe', body: game, piped });
const refused = await withFast.transform({ actions: [{ type: 'take', winner: ID }] }, { type: 'body', metatype: StartGameDto }).then(
  () => 'accepted',
  (e) => e?.code,
);
if (refused !== 'VALIDATION_FAILED') failures.push({ kind: 'pipe refusal', refused });

process.stdout.write(JSON.stringify({ counts, failures: failures.slice(0, 5), failureCount: failures.length }) + '\n');
