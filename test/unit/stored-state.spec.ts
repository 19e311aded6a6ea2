import { engineFor, newChouette, newMatchSetup, newMoneySetup, nextChouetteGame, nextMatchGame, nextMoneyGame, scoreOf } from '../../src/tables/engines';
import { decodeAnyGame, decodeAnyTable, decodeGame, decodeTable, decodeTableJson, gameVariantOf, RawGame, RawTable, StoredAction } from '../../src/tables/stored-state';

const A = '01900000-0000-7000-8000-00000000000a';
const B = '01900000-0000-7000-8000-00000000000b';
const C = '01900000-0000-7000-8000-00000000000c';
const TABLE_ID = '01900000-0000-7000-8000-0000000000f1';

/** A value as it comes back from a jsonb column. */
const stored = <T>(v: T): unknown => JSON.parse(JSON.stringify(v));

const now = new Date('2025-01-01T00:00:00Z');

function table(kind: unknown, setup: unknown, state: unknown): RawTable {
  return {
    clubId: 'club',
    id: TABLE_ID,
    kind,
    sessionId: null,
    status: 'in-progress',
    setup,
    state,
    stakeMinor: null,
    nextGameNo: 1,
    currentGameNo: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

function game(setup: unknown, actions: unknown = []): RawGame {
  return {
    clubId: 'club',
    tableId: TABLE_ID,
    gameNo: 3,
    status: 'in-progress',
    automaticDoubles: 0,
    setup,
    actions,
    result: null,
    points: null,
    winnerSide: null,
    startedAt: now,
    endedAt: null,
    voidedAt: null,
    voidReason: null,
    voidedBy: null,
    version: 1,
    players: [A, B],
  };
}

const matchSetup = newMatchSetup({ sides: [[A], [B]], target: 5 });
const moneySetup = newMoneySetup({ players: [A, B], stakeMinor: 100 });
const chouette = newChouette({ stakeMinor: 100, seating: { order: [A, B, C] } }, () => 0);
const penalty = { seq: 1, side: 1, points: 1, reason: 'slow play', afterGameNo: 0, at: now.toISOString() };
const action: StoredAction = { seq: 1, type: 'double', by: A, at: now.toISOString() };

const matchGame = nextMatchGame(matchSetup, scoreOf(matchSetup, [], {}));
const moneyGame = nextMoneyGame(moneySetup);
const chouetteGame = nextChouetteGame(chouette.setup, chouette.state);

/** The message of the error `f` throws. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof Error) return e.message;
  }
  throw new Error('nothing was refused');
}

describe('stored tables', () => {
  it('decode a row of each kind as read, typed by its kind', () => {
    const match = decodeTable(table('match', stored(matchSetup), stored({ penalties: [penalty], ratings: [{ playerId: A, delta: 1.5, experience: 5 }] })), 'match');
    expect(match.kind).toBe('match');
    expect(match.setup).toEqual(matchSetup);
    expect(match.state.penalties).toEqual([penalty]);

    const money = decodeTable(table('money', stored(moneySetup), {}), 'money');
    expect(money.setup).toEqual(moneySetup);
    expect(money.state).toEqual({});

    const seated = decodeTable(table('chouette', stored(chouette.setup), stored(chouette.state)), 'chouette');
    expect(seated.setup).toEqual(chouette.setup);
    expect(seated.state.seats).toEqual(chouette.state.seats);
  });

  it('keep the JSON as it was read, whatever it holds besides what is checked', () => {
    const setup = stored(matchSetup);
    const state = { penalties: [], note: 'kept' };
    const match = decodeTable(table('match', setup, state), 'match');
    expect(match.setup).toBe(setup);
    expect(match.state).toBe(state);
  });

  it('decode a row of any kind as the kind it names', () => {
    const t = decodeAnyTable(table('chouette', stored(chouette.setup), stored(chouette.state)));
    if (t.kind !== 'chouette') throw new Error(`decoded as ${t.kind}`);
    expect(t.state.seats.box).toBe(chouette.state.seats.box);
  });

  it('decode the setup and state of a match read without its row (a team event board)', () => {
    expect(decodeTableJson('match', TABLE_ID, stored(matchSetup), { penalties: [] }).setup.target).toBe(5);
  });

  it('accept a match state without penalties, as a match read before any', () => {
    expect(decodeTable(table('match', stored(matchSetup), {}), 'match').state.penalties).toBeUndefined();
  });

  it('refuse a row of another kind than the one asked for, naming the field', () => {
    expect(refusal(() => decodeTable(table('money', stored(moneySetup), {}), 'match'))).toMatch(`table ${TABLE_ID} (match)`);
    expect(refusal(() => decodeTable(table('money', stored(moneySetup), {}), 'match'))).toMatch(/\bkind should be "match", found a string/);
    expect(refusal(() => decodeAnyTable(table('bridge', {}, {})))).toMatch(/\bkind should be one of match, money, chouette/);
  });

  it('refuse a missing field, naming the table and the field', () => {
    const { target: _target, ...noTarget } = matchSetup;
    const message = refusal(() => decodeTable(table('match', stored(noTarget), { penalties: [] }), 'match'));
    expect(message).toMatch(`Stored table ${TABLE_ID} (match)`);
    expect(message).toMatch('setup.target should be a number, found nothing');
  });

  it('refuse a mistyped field, naming its path', () => {
    const seats = { ...chouette.state.seats, line: [B, 7] };
    expect(refusal(() => decodeTable(table('chouette', stored(chouette.setup), { seats }), 'chouette'))).toMatch('state.seats.line[1] should be a string, found a number');
    expect(refusal(() => decodeTable(table('chouette', { ...chouette.setup, stakes: {} }, stored(chouette.state)), 'chouette'))).toMatch('setup.stakes should be an array, found an object');
    expect(refusal(() => decodeTable(table('money', { ...moneySetup, rules: { ...moneySetup.rules, jacoby: 'yes' } }, {}), 'money'))).toMatch('setup.rules.jacoby should be a boolean');
    expect(refusal(() => decodeTable(table('match', stored(matchSetup), { penalties: [{ ...penalty, side: 2 }] }), 'match'))).toMatch('state.penalties[0].side should be one of 0, 1');
    expect(refusal(() => decodeTable(table('match', stored({ ...matchSetup, sides: [[A]] }), {}), 'match'))).toMatch('setup.sides should be two sides');
    expect(refusal(() => decodeTable(table('money', stored(moneySetup), null), 'money'))).toMatch('state should be an object, found null');
  });
});

describe('stored games', () => {
  it('decode a game of each kind as read, its setup typed by its table kind', () => {
    expect(decodeGame(game(stored(matchGame), [action]), 'match').setup.doubling).toBe(matchGame.doubling);
    expect(decodeGame(game(stored(moneyGame)), 'money').setup.table).toBe('money');
    const g = decodeGame(game(stored(chouetteGame)), 'chouette');
    expect(g.setup.seatsAtStart).toEqual(chouetteGame.seatsAtStart);
    expect(g.setup.setup.box).toBe(chouetteGame.setup.box);
  });

  it('decode a game read without its table kind as the kind its setup names', () => {
    expect(decodeAnyGame(game(stored(chouetteGame))).setup).toEqual(chouetteGame);
    expect(decodeAnyGame(game(stored(moneyGame))).setup).toEqual(moneyGame);
    expect(refusal(() => decodeAnyGame(game({ doubling: 'allowed' })))).toMatch(`game 3 of table ${TABLE_ID}`);
  });

  it('refuse a game whose setup is of another kind than its table, naming the field', () => {
    expect(refusal(() => decodeGame(game(stored(moneyGame)), 'match'))).toMatch('setup.table should be one of "match", found a string');
    expect(refusal(() => decodeGame(game(stored(matchGame)), 'chouette'))).toMatch('setup.kind should be one of "chouette", found nothing');
  });

  it('refuse a mistyped setup or action log, naming the game and the field', () => {
    const seatsAtStart = { ...chouetteGame.seatsAtStart, partnerLeft: 'no' };
    const message = refusal(() => decodeGame(game(stored({ ...chouetteGame, seatsAtStart })), 'chouette'));
    expect(message).toMatch(`Stored game 3 of table ${TABLE_ID}`);
    expect(message).toMatch('setup.seatsAtStart.partnerLeft should be a boolean, found a string');
    expect(refusal(() => decodeGame(game(stored(matchGame), {}), 'match'))).toMatch('actions should be an array, found an object');
    expect(refusal(() => decodeGame(game(stored(matchGame), [{ ...action, type: 'resign' }]), 'match'))).toMatch('actions[0].type should be one of');
    expect(refusal(() => decodeGame(game(stored({ ...matchGame, match: { pointsToGo: [5], deadCube: 'refuse' } })), 'match'))).toMatch('setup.match.pointsToGo should be two numbers');
  });
});

describe('a table narrowed by its kind', () => {
  it("reaches its kind's engine with its kind's types", () => {
    const t = decodeAnyTable(table('chouette', stored(chouette.setup), stored(chouette.state)));
    const g = decodeAnyGame(game(stored(chouetteGame)));
    if (t.kind !== 'chouette') throw new Error(`decoded as ${t.kind}`);
    const setup = decodeGame(g, t.kind).setup;
    const state = engineFor(t.kind).start(setup, 0);
    expect(state.cubes).toHaveLength(setup.setup.team.length);
    expect(engineFor(t.kind).players(t.setup, setup)).toEqual([A, B, C].sort());
  });
});

describe('R8: stored variants', () => {
  it('R8 a table and its games written before variants read as backgammon', () => {
    const { variant: _m, ...oldMatch } = matchSetup;
    const { variant: _g, ...oldGame } = matchGame;
    expect(decodeTable(table('match', stored(oldMatch), {}), 'match').setup.variant).toBeUndefined();
    const g = decodeGame(game(stored(oldGame)), 'match');
    expect(gameVariantOf(g)).toBe('backgammon');
    expect(engineFor('match').replay(g.setup, [], 0).status).toBe('in-progress');
  });

  it('R8.5 a Tavli table stores its variant and each game its own; an unknown variant is corrupt', () => {
    const tavli = newMoneySetup({ players: [A, B], stakeMinor: 100, variant: 'tavli' });
    expect(decodeTable(table('money', stored(tavli), {}), 'money').setup.variant).toBe('tavli');
    const third = decodeGame(game(stored(nextMoneyGame(tavli, 2))), 'money');
    expect(gameVariantOf(third)).toBe('fevga');
    expect(() => decodeTable(table('money', stored({ ...tavli, variant: 'chess' }), {}), 'money')).toThrow(/setup\.variant/);
    expect(() => decodeGame(game(stored({ ...nextMoneyGame(tavli, 0), variant: 'tavli' })), 'money')).toThrow(/setup\.variant/);
  });

  it('R8.6 a Tavla 31 finish is stored with its checkers left', () => {
    const finish: StoredAction = { seq: 1, type: 'finish', winner: A, checkersLeft: 7, resigned: false, at: now.toISOString() };
    const tavla = newMoneySetup({ players: [A, B], stakeMinor: 100, variant: 'tavla-31' });
    const g = decodeGame(game(stored(nextMoneyGame(tavla)), stored([finish])), 'money');
    expect(
      engineFor('money').replay(
        g.setup,
        g.actions.map((a) => ({ type: 'finish' as const, winner: a.winner, checkersLeft: a.checkersLeft })),
        0,
      ),
    ).toMatchObject({ points: 7, winnerSide: 0 });
  });
});
