// @ts-check
/**
 * A whole club evening against a running service, through the typed client
 * (openapi-fetch over the types `npm run client` generates in openapi/schema.d.ts).
 *
 *   node examples/first-evening.mjs
 *
 * BASE_URL     the service (default http://127.0.0.1:3000)
 * ADMIN_TOKEN  the operator token; unset: read from DATA_DIR/admin-token (DATA_DIR default .data),
 *              where `npm start` keeps the one it generated
 * OUT_DIR      where the CSV and PDF statements are written (default: a new temporary folder)
 *
 * Every id it uses comes from an answer. It checks what a scorer would check (scores,
 * seats, who pays whom, that the books add up) and exits 1 at the first answer it did
 * not expect, printing it.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';

/** @typedef {import('../openapi/schema.js').paths} Paths */
/** @typedef {import('../openapi/schema.js').components['schemas']} Schemas */
/** @typedef {Schemas['ActionDto']} Action */
/** @typedef {Schemas['PayoutDto']} Payout */

const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const DATA_DIR = process.env.DATA_DIR || '.data';

/** The operator token: ADMIN_TOKEN, else the one `npm start` generated and kept. */
function operatorToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = join(DATA_DIR, 'admin-token');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new Unexpected(`no ADMIN_TOKEN and no ${file}: start the service once with \`npm start\`, or set ADMIN_TOKEN`);
  }
}

class Unexpected extends Error {}

/** A typed client that sends `token`, an Idempotency-Key on every write, and prints each call. */
function clientFor(/** @type {string} */ token) {
  const api = createClient(/** @type {import('openapi-fetch').ClientOptions} */ ({ baseUrl: BASE_URL, headers: { Authorization: `Bearer ${token}` } }));
  api.use({
    onRequest({ request }) {
      if (request.method !== 'GET') request.headers.set('Idempotency-Key', randomUUID());
      return request;
    },
    onResponse({ request, response }) {
      const url = new URL(request.url);
      console.log(`    ${request.method} ${url.pathname}${url.search} -> ${response.status}`);
      return response;
    },
  });
  return /** @type {import('openapi-fetch').Client<Paths>} */ (/** @type {unknown} */ (api));
}

/**
 * The answer's body when its status is `status`; otherwise stops the evening, printing the answer.
 * @template T
 * @param {Promise<{ data?: T; error?: unknown; response: Response }>} call
 * @param {number} status
 * @returns {Promise<NonNullable<T>>}
 */
async function expectStatus(call, status) {
  const { data, error, response } = await call;
  if (response.status !== status || data === undefined || data === null) {
    throw new Unexpected(`expected ${status}, got ${response.status} ${response.headers.get('content-type') ?? ''}\n${JSON.stringify(error ?? data, null, 2)}`);
  }
  return data;
}

/**
 * A refusal the rules call for: the status and problem code must be these.
 * @param {Promise<{ data?: unknown; error?: unknown; response: Response }>} call
 * @param {number} status
 * @param {string} code
 */
async function expectRefusal(call, status, code) {
  const { error, response } = await call;
  const problem = /** @type {{ code?: string; rule?: string; detail?: string } | undefined} */ (error);
  if (response.status !== status || problem?.code !== code) {
    throw new Unexpected(`expected ${status} ${code}, got ${response.status}\n${JSON.stringify(error, null, 2)}`);
  }
  console.log(`    refused as expected: ${code}${problem.rule ? ` (${problem.rule})` : ''}${problem.detail ? `: ${problem.detail}` : ''}`);
}

/**
 * Stops the evening when `actual` is not `expected` (compared as JSON).
 * @param {string} what
 * @param {unknown} actual
 * @param {unknown} expected
 */
function check(what, actual, expected) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Unexpected(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
  console.log(`    ok: ${what} = ${JSON.stringify(actual)}`);
}

const step = (/** @type {string} */ text) => console.log(`\n== ${text}`);

/** @type {(by: string, cubes?: string[]) => Action} */
const double = (by, cubes) => (cubes ? { type: 'double', by, cubes } : { type: 'double', by });
/** @type {(by: string) => Action} */
const take = (by) => ({ type: 'take', by });
/** @type {(by: string) => Action} */
const pass = (by) => ({ type: 'pass', by });
/** @type {(winner: string, result?: 'single' | 'gammon' | 'backgammon') => Action} */
const finish = (winner, result = 'single') => ({ type: 'finish', winner, result });

async function main() {
  console.log(`A club evening at ${BASE_URL}`);
  const operator = clientFor(operatorToken());
  const health = await expectStatus(operator.GET('/health'), 200);
  console.log(`    the service answers: ${JSON.stringify(health)}`);

  step('The operator creates a club; its owner key is in the answer, shown once');
  const created = await expectStatus(operator.POST('/v1/clubs', { body: { name: `Riverside BG ${new Date().toISOString()}`, currency: 'EUR', timezone: 'Europe/Berlin' } }), 201);
  const club = created.club;
  const owner = clientFor(created.apiKey.token);
  console.log(`    club ${club.id} (${club.name}), owner key ${created.apiKey.hint}…`);

  step("The owner makes a key for the scorer's tablet; the tablet records the evening from here on");
  const tabletKey = await expectStatus(owner.POST('/v1/api-keys', { body: { name: 'Tablet 1', role: 'scorer' } }), 201);
  const tablet = clientFor(tabletKey.token);
  check('tablet key role', tabletKey.role, 'scorer');

  step('Players');
  /** @type {Record<string, string>} */
  const id = {};
  for (const name of ['Anna', 'Ben', 'Cleo', 'Dan', 'Eva', 'Finn']) {
    const player = await expectStatus(tablet.POST('/v1/players', { body: { name } }), 201);
    id[name] = player.id;
  }
  const nameOf = Object.fromEntries(Object.entries(id).map(([name, playerId]) => [playerId, name]));
  const who = (/** @type {string} */ party) => nameOf[party] ?? party;
  const { Anna, Ben, Cleo, Dan, Eva, Finn } = id;
  // A rename only if nobody changed her since version 1 (If-Match).
  const renamed = await expectStatus(tablet.PATCH('/v1/players/{id}', { params: { path: { id: Anna }, header: { 'If-Match': '"1"' } }, body: { nickname: 'Annie' } }), 200);
  check("Anna's nickname after the rename", [renamed.nickname, renamed.version], ['Annie', 2]);

  step("Tonight's session, with a 2.5 % rake for the house on money and chouette games (R6.4)");
  const session = await expectStatus(tablet.POST('/v1/sessions', { body: { name: 'Tuesday club night', rakePercent: 2.5 } }), 201);
  const sessionId = session.id;
  check('session', [session.status, session.currency], ['open', 'EUR']);

  step('A match to 5 points, Anna v Ben, for a 10.00 stake (R3.8)');
  const match = await expectStatus(tablet.POST('/v1/matches', { body: { sessionId, sides: [[Anna], [Ben]], target: 5, stakeMinor: 1000 } }), 201);
  const matchPath = { id: match.id };
  // Game 1, one action at a time: Anna doubles, Ben takes, Anna wins a single: 2 points.
  const g1 = await expectStatus(tablet.POST('/v1/matches/{id}/games', { params: { path: matchPath }, body: {} }), 201);
  const gamePath = { id: match.id, gameNo: g1.gameNo };
  await expectStatus(tablet.POST('/v1/matches/{id}/games/{gameNo}/actions', { params: { path: gamePath }, body: double(Anna) }), 200);
  await expectStatus(tablet.POST('/v1/matches/{id}/games/{gameNo}/actions', { params: { path: gamePath }, body: take(Ben) }), 200);
  const g1done = await expectStatus(tablet.POST('/v1/matches/{id}/games/{gameNo}/actions', { params: { path: gamePath }, body: finish(Anna) }), 200);
  check('game 1 points (cube 2 × single)', g1done.points, 2);
  // Whole games at once: Ben wins a gammon (2-2); Anna doubles, Ben passes (3-2); Anna wins a single (4-2).
  const playMatchGame = (/** @type {Action[]} */ actions) => expectStatus(tablet.POST('/v1/matches/{id}/games', { params: { path: matchPath }, body: { actions } }), 201);
  await playMatchGame([finish(Ben, 'gammon')]);
  await playMatchGame([double(Anna), pass(Ben)]);
  await playMatchGame([finish(Anna)]);
  let m = await expectStatus(tablet.GET('/v1/matches/{id}', { params: { path: matchPath } }), 200);
  check('score after 4 games', m.score, [4, 2]);
  // Anna is one point short: game 5 is the Crawford game, where nobody may double (R3.4).
  const g5 = await expectStatus(tablet.POST('/v1/matches/{id}/games', { params: { path: matchPath }, body: {} }), 201);
  check('game 5 is the Crawford game', [g5.gameNo, g5.crawford], [5, true]);
  const g5path = { id: match.id, gameNo: g5.gameNo };
  await expectRefusal(tablet.POST('/v1/matches/{id}/games/{gameNo}/actions', { params: { path: g5path }, body: double(Ben) }), 422, 'CRAWFORD_NO_DOUBLE');
  await expectStatus(tablet.POST('/v1/matches/{id}/games/{gameNo}/actions', { params: { path: g5path }, body: finish(Ben) }), 200);
  // Post-Crawford: Ben doubles, Anna takes and wins a single: 2 points, 6-3, the match is Anna's.
  await playMatchGame([double(Ben), take(Anna), finish(Anna)]);
  m = await expectStatus(tablet.GET('/v1/matches/{id}', { params: { path: matchPath } }), 200);
  check('final score, status, winner side', [m.score, m.status, m.winnerSide], [[6, 3], 'finished', 0]);

  step('A money game at 1.00 a point, Cleo v Dan (R4)');
  const table = await expectStatus(tablet.POST('/v1/money-games', { body: { sessionId, players: [Cleo, Dan], stakeMinor: 100 } }), 201);
  const playMoneyGame = (/** @type {Action[]} */ actions) => expectStatus(tablet.POST('/v1/money-games/{id}/games', { params: { path: { id: table.id } }, body: { actions } }), 201);
  // Cleo doubles, Dan takes, Cleo wins a gammon: 2 × 2 = 4 points, 400; the house takes 2.5 % of Cleo's gain.
  const mg1 = await playMoneyGame([double(Cleo), take(Dan), finish(Cleo, 'gammon')]);
  check('money game 1: points and payouts', [mg1.points, mg1.payouts.map(payoutLine).sort()], [4, ['Cleo pays house 10 (rake)', 'Dan pays Cleo 400 (game)']]);
  // No cube turned: Jacoby keeps Dan's gammon a single (R1.5).
  const mg2 = await playMoneyGame([finish(Dan, 'gammon')]);
  check('money game 2: points and payouts', [mg2.points, mg2.payouts.map(payoutLine).sort()], [1, ['Cleo pays Dan 100 (game)', 'Dan pays house 2 (rake)']]);

  step('A chouette of four, seated by the roll-off: Eva (6) the box, Finn (5) the captain (R5.1)');
  const chouette = await expectStatus(
    tablet.POST('/v1/chouettes', {
      body: {
        sessionId,
        stakeMinor: 100,
        seating: {
          rolls: [
            { playerId: Cleo, roll: 3 },
            { playerId: Eva, roll: 6 },
            { playerId: Dan, roll: 2 },
            { playerId: Finn, roll: 5 },
          ],
        },
      },
    }),
    201,
  );
  check('seats', seats(chouette), { box: 'Eva', captain: 'Finn', team: ['Finn', 'Cleo', 'Dan'] });
  const playChouetteGame = (/** @type {Action[]} */ actions) => expectStatus(tablet.POST('/v1/chouettes/{id}/games', { params: { path: { id: chouette.id } }, body: { actions } }), 201);
  // The box doubles Cleo and Dan: Cleo passes (pays 100, R5.4), Dan takes (his cube 2). The team wins a single.
  const cg1 = await playChouetteGame([double(Eva, [Cleo, Dan]), pass(Cleo), take(Dan), finish(Finn)]);
  check('chouette game 1 payouts', cg1.payouts.map(payoutLine).sort(), [
    'Cleo pays Eva 100 (game)',
    'Dan pays house 5 (rake)',
    'Eva pays Dan 200 (game)',
    'Eva pays Finn 100 (game)',
    'Finn pays house 2 (rake)',
  ]);
  // The captain beat the box: Finn takes the box, Eva goes to the back (R5.7).
  let seated = await expectStatus(tablet.GET('/v1/chouettes/{id}', { params: { path: { id: chouette.id } } }), 200);
  check('seats after game 1', seats(seated), { box: 'Finn', captain: 'Cleo', team: ['Cleo', 'Dan', 'Eva'] });
  // The box wins a gammon with no cube turned: Jacoby, cube by cube, makes it a single for each (R5.6).
  const cg2 = await playChouetteGame([finish(Finn, 'gammon')]);
  check('chouette game 2 payouts', cg2.payouts.map(payoutLine).sort(), ['Cleo pays Finn 100 (game)', 'Dan pays Finn 100 (game)', 'Eva pays Finn 100 (game)', 'Finn pays house 7 (rake)']);
  seated = await expectStatus(tablet.GET('/v1/chouettes/{id}', { params: { path: { id: chouette.id } } }), 200);
  check('seats after game 2', seats(seated), { box: 'Finn', captain: 'Dan', team: ['Dan', 'Eva', 'Cleo'] });

  step('A team event, North v South, three boards to 3 points, 5.00 a board (R3.7)');
  const event = await expectStatus(
    tablet.POST('/v1/team-events', {
      body: {
        name: 'North v South',
        sessionId,
        target: 3,
        stakeMinor: 500,
        teams: [
          { name: 'North', players: [Anna, Cleo, Eva] },
          { name: 'South', players: [Ben, Dan, Finn] },
        ],
      },
    }),
    201,
  );
  const boards = event.boards.map((b) => b.matchId);
  const playBoard = (/** @type {number} */ board, /** @type {Action[]} */ actions) =>
    expectStatus(tablet.POST('/v1/matches/{id}/games', { params: { path: { id: boards[board] } }, body: { actions } }), 201);
  await playBoard(0, [finish(Anna, 'backgammon')]); // 3-0 North
  await playBoard(1, [double(Cleo), take(Dan), finish(Dan, 'gammon')]); // 0-4 South
  await playBoard(2, [finish(Eva, 'gammon')]); // 2-0
  await playBoard(2, [finish(Finn)]); // 2-1, the Crawford game
  await playBoard(2, [finish(Eva)]); // 3-1 North
  const decided = await expectStatus(tablet.GET('/v1/team-events/{id}', { params: { path: { id: event.id } } }), 200);
  check('team event score, status, winner', [decided.score, decided.status, decided.winnerTeam], [[2, 1], 'finished', 0]);

  step('Cash handed over tonight: Ben pays Anna 15.00');
  await expectStatus(tablet.POST('/v1/sessions/{id}/payments', { params: { path: { id: sessionId } }, body: { from: Ben, to: Anna, amountMinor: 1500, note: 'cash' } }), 201);

  step('Closing the session: refused while a game is being played (R6.7), then closed');
  const open = await expectStatus(tablet.POST('/v1/money-games/{id}/games', { params: { path: { id: table.id } }, body: {} }), 201);
  await expectRefusal(tablet.POST('/v1/sessions/{id}/close', { params: { path: { id: sessionId } } }), 422, 'GAMES_IN_PROGRESS');
  await expectStatus(tablet.POST('/v1/money-games/{id}/games/{gameNo}/abandon', { params: { path: { id: table.id, gameNo: open.gameNo } } }), 200);
  const closed = await expectStatus(tablet.POST('/v1/sessions/{id}/close', { params: { path: { id: sessionId } } }), 200);
  check('session status', closed.status, 'closed');

  step('The statement: each player, the house, and who pays whom (R6.5)');
  const statement = await expectStatus(tablet.GET('/v1/sessions/{id}/settlement', { params: { path: { id: sessionId } } }), 200);
  if (typeof statement === 'string') throw new Unexpected(`a JSON statement was expected, got ${statement.slice(0, 200)}`);
  for (const p of statement.players) {
    console.log(
      `    ${nameOf[p.playerId].padEnd(5)} net ${money(p.netMinor).padStart(7)}  paid ${money(p.paidMinor).padStart(6)}  received ${money(p.receivedMinor).padStart(6)}  outstanding ${money(p.outstandingMinor).padStart(7)}`,
    );
  }
  console.log(`    house net ${money(statement.houseMinor)}`);
  // Match stakes (10.00 and 5.00 a board) are never raked; the rake is 10 + 2 + 2 + 5 + 7 (R6.4).
  const nets = Object.fromEntries(statement.players.map((p) => [nameOf[p.playerId], p.netMinor]));
  check('nets', nets, { Anna: 1500, Ben: -1500, Cleo: -410, Dan: 293, Eva: 200, Finn: -109 });
  check('house', statement.houseMinor, 26);
  check(
    'players and house add up to zero (R6.3)',
    statement.players.reduce((sum, p) => sum + p.netMinor, statement.houseMinor),
    0,
  );
  console.log('    who pays whom:');
  for (const t of statement.transfers) console.log(`      ${who(t.from)} pays ${who(t.to)} ${money(t.amountMinor)}`);
  // The transfers clear every outstanding balance to the cent, with fewer transfers than parties (R6.5).
  /** @type {Record<string, number>} */
  const left = Object.fromEntries(statement.players.map((p) => [p.playerId, p.outstandingMinor]));
  left.house = statement.houseOutstandingMinor;
  for (const t of statement.transfers) {
    left[t.from] += t.amountMinor;
    left[t.to] -= t.amountMinor;
  }
  check(
    'balances left after the transfers',
    Object.values(left).filter((v) => v !== 0),
    [],
  );
  const parties = statement.players.filter((p) => p.outstandingMinor !== 0).length + (statement.houseOutstandingMinor !== 0 ? 1 : 0);
  check('at most one transfer fewer than the parties owed or owing', statement.transfers.length <= parties - 1, true);

  step('The statement as CSV and PDF');
  const out = process.env.OUT_DIR || mkdtempSync(join(tmpdir(), 'first-evening-'));
  mkdirSync(out, { recursive: true });
  const csv = await expectStatus(tablet.GET('/v1/sessions/{id}/settlement', { params: { path: { id: sessionId } }, headers: { Accept: 'text/csv' }, parseAs: 'text' }), 200);
  check(
    'CSV names every player',
    Object.keys(id).filter((name) => !csv.includes(name)),
    [],
  );
  writeFileSync(join(out, 'statement.csv'), csv);
  const pdf = await expectStatus(tablet.GET('/v1/sessions/{id}/settlement', { params: { path: { id: sessionId } }, headers: { Accept: 'application/pdf' }, parseAs: 'arrayBuffer' }), 200);
  check('PDF header', Buffer.from(pdf.slice(0, 5)).toString('latin1'), '%PDF-');
  writeFileSync(join(out, 'statement.pdf'), Buffer.from(pdf));
  console.log(`    wrote ${join(out, 'statement.csv')} and ${join(out, 'statement.pdf')}`);

  console.log('\nThe evening went as the rules say.');

  /** One ledger line of a game, in words (compared sorted: the order of a game's lines is no rule). @param {Payout} p */
  function payoutLine(p) {
    return `${who(p.from)} pays ${who(p.to)} ${p.amountMinor} (${p.kind})`;
  }
  /** @param {Schemas['ChouetteDto']} c */
  function seats(c) {
    return { box: who(c.box), captain: c.captain === null ? null : who(c.captain), team: c.team.map(who) };
  }
}

/** Minor units as a decimal amount of a two-digit currency. */
const money = (/** @type {number} */ minor) => (minor / 100).toFixed(2);

main().catch((e) => {
  if (e instanceof Unexpected) console.error(`\nUnexpected: ${e.message}`);
  else console.error(e);
  process.exitCode = 1;
});
