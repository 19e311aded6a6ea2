/**
 * Table and game rows as the service holds them: the JSON of their `setup` and `state`
 * columns typed by the table's kind, and the decoders that check what the database
 * returns against those types. A row whose JSON does not fit its kind is corrupt: the
 * decoder throws a plain Error naming the row and the field (answered 500, logged).
 * The decoders return the JSON as read (nothing dropped, nothing added), so what is
 * written back is what was read. Pure TypeScript.
 */
import type { ChouetteGameSetup, ChouetteRules, ChouetteSeats, PlayerStake } from '../domain/chouette';
import { TABLE_KINDS } from '../domain/table-kinds';
import type { GameAction, GameSetup } from '../domain/game';
import type { ActionDto } from './tables.dto';
import type { CubeRules, MatchRules } from '../domain/rules';
import { FORFEIT_REASONS } from '../domain/match';
import { GAME_VARIANTS, VARIANT_RESULTS, VARIANTS, type GameVariant, type VariantResult } from '../domain/variants';
import type {
  ChouetteTableSetup,
  ChouetteTableState,
  GameSetups,
  MatchTableSetup,
  MatchTableState,
  MoneyTableSetup,
  MoneyTableState,
  StoredChouetteGame,
  StoredForfeit,
  StoredPenalty,
  StoredVoid,
  StoredRatingChange,
  TableKind,
  TableSetups,
  TableStates,
} from './engines';

export type { GameSetups, GameStates, TableKind, TableSetups, TableStates } from './engines';

/** An action as recorded: what the scorer sent, its sequence number and time. */
export interface StoredAction {
  seq: number;
  type: 'double' | 'take' | 'pass' | 'beaver' | 'raccoon' | 'finish' | 'resign-refused';
  by?: string;
  cube?: string | null;
  cubes?: string[];
  winner?: string;
  result?: VariantResult;
  resigned?: boolean;
  /** R3.10: who offered the resignation a finish records. */
  offeredBy?: string;
  /** R8.6: Tavla 31. */
  checkersLeft?: number;
  at: string;
}

// ---------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------

/** The columns of a `game_tables` row that every kind has. */
export interface TableColumns {
  clubId: string;
  id: string;
  sessionId: string | null;
  status: 'in-progress' | 'finished';
  stakeMinor: string | null;
  nextGameNo: number;
  currentGameNo: number | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A `game_tables` row of one kind: its setup and state typed by that kind. */
export interface TableRow<K extends TableKind> extends TableColumns {
  kind: K;
  setup: TableSetups[K];
  state: TableStates[K];
}

export type MatchTableRow = TableRow<'match'>;
export type MoneyTableRow = TableRow<'money'>;
export type ChouetteTableRow = TableRow<'chouette'>;

/**
 * The row of a table of kind K: one kind's row for a kind, the union of the kinds' rows
 * (narrowed by `kind`) for `TableKind`.
 */
export type TableRowOf<K extends TableKind> = { [P in K]: TableRow<P> }[K];

/** A table of any kind: narrow it by `kind` to reach its setup and state. */
export type StoredTable = TableRowOf<TableKind>;

/** The columns of a `games` row, whatever its table's kind. */
export interface GameColumns {
  clubId: string;
  tableId: string;
  gameNo: number;
  status: 'in-progress' | 'finished' | 'voided' | 'abandoned';
  automaticDoubles: number;
  actions: StoredAction[];
  result: Record<string, unknown> | null;
  points: number | null;
  /** Match/money: 0 or 1; chouette: 0 = the box side, 1 = the team. */
  winnerSide: number | null;
  startedAt: Date;
  endedAt: Date | null;
  voidedAt: Date | null;
  voidReason: string | null;
  voidedBy: string | null;
  version: number;
  /** Who played the game (a chouette's seats at its start), for statements (R6.5). */
  players: string[];
}

/**
 * A game of a table of kind K: its `setup` is a two-sided game's setup at a match or a
 * money game, a StoredChouetteGame at a chouette. StoredGame (any kind) has either.
 */
export interface StoredGame<K extends TableKind = TableKind> extends GameColumns {
  setup: GameSetups[K];
}

/** Whether a game is its match's Crawford game (R3.4); never at a money game or a chouette. */
export function isCrawfordGame(game: StoredGame): boolean {
  return 'doubling' in game.setup && game.setup.doubling === 'crawford';
}

/** R8: a game's own variant (absent in rows written before variants, and in a chouette: backgammon). */
export function gameVariantOf(game: StoredGame): GameVariant {
  return 'variant' in game.setup && game.setup.variant !== undefined ? game.setup.variant : 'backgammon';
}

// ---------------------------------------------------------------------------
// Decoders
// ---------------------------------------------------------------------------

/** A table row read from the database: its JSON columns not checked yet. */
export interface RawTable extends TableColumns {
  kind: unknown;
  setup: unknown;
  state: unknown;
}

/** A game row read from the database: its JSON columns not checked yet. */
export interface RawGame extends Omit<GameColumns, 'actions'> {
  setup: unknown;
  actions: unknown;
}

/** Where a value sits in a stored row, for the message that refuses it. */
class Field {
  constructor(
    private readonly row: string,
    private readonly path: string,
  ) {}

  at(key: string | number): Field {
    return new Field(this.row, typeof key === 'number' ? `${this.path}[${key}]` : this.path ? `${this.path}.${key}` : key);
  }

  /** The refusal of the value found here, which is not what was expected. */
  error(expected: string, found: unknown): Error {
    const type = typeof found;
    const got = found === null ? 'null' : Array.isArray(found) ? 'an array' : found === undefined ? 'nothing' : type === 'object' ? 'an object' : `a ${type}`;
    return new Error(`Stored ${this.row} does not fit its kind: ${this.path} should be ${expected}, found ${got}`);
  }
}

const tableField = (id: string, kind: string): Field => new Field(`table ${id} (${kind})`, '');
const gameField = (tableId: string, gameNo: number): Field => new Field(`game ${gameNo} of table ${tableId}`, '');

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function record(v: unknown, f: Field): Record<string, unknown> {
  if (!isRecord(v)) throw f.error('an object', v);
  return v;
}

function assertString(v: unknown, f: Field): asserts v is string {
  if (typeof v !== 'string') throw f.error('a string', v);
}

function assertNumber(v: unknown, f: Field): asserts v is number {
  if (typeof v !== 'number') throw f.error('a number', v);
}

function assertBoolean(v: unknown, f: Field): asserts v is boolean {
  if (typeof v !== 'boolean') throw f.error('a boolean', v);
}

function assertOneOf<T extends string | number>(v: unknown, values: readonly T[], f: Field): asserts v is T {
  if (!values.some((x) => x === v)) throw f.error(`one of ${values.map((x) => JSON.stringify(x)).join(', ')}`, v);
}

function assertNullable<T>(v: unknown, f: Field, check: (v: unknown, f: Field) => asserts v is T): asserts v is T | null {
  if (v !== null) check(v, f);
}

function assertArray<T>(v: unknown, f: Field, each: (item: unknown, f: Field) => asserts item is T): asserts v is T[] {
  if (!Array.isArray(v)) throw f.error('an array', v);
  v.forEach((item: unknown, i) => each(item, f.at(i)));
}

function assertStrings(v: unknown, f: Field): asserts v is string[] {
  assertArray(v, f, assertString);
}

/** Two sides of player ids. */
function assertSides(v: unknown, f: Field): asserts v is [string[], string[]] {
  assertArray(v, f, assertStrings);
  if (v.length !== 2) throw f.error('two sides', v);
}

function assertCubeRules(v: unknown, f: Field): asserts v is CubeRules {
  const o = record(v, f);
  assertNullable(o.cubeLimit, f.at('cubeLimit'), assertNumber);
  assertBoolean(o.beavers, f.at('beavers'));
  assertBoolean(o.raccoons, f.at('raccoons'));
  assertNumber(o.automaticDoubles, f.at('automaticDoubles'));
  assertBoolean(o.jacoby, f.at('jacoby'));
  assertOneOf(o.backgammonMultiplier, [2, 3], f.at('backgammonMultiplier'));
  if (o.cube !== undefined) assertBoolean(o.cube, f.at('cube'));
  if (o.stopAtLead !== undefined) assertNullable(o.stopAtLead, f.at('stopAtLead'), assertNumber);
  if (o.motherPoints !== undefined) assertOneOf(o.motherPoints, [1, 2, 3], f.at('motherPoints'));
}

function assertMatchRules(v: unknown, f: Field): asserts v is MatchRules {
  assertCubeRules(v, f);
  const o = record(v, f);
  assertBoolean(o.crawford, f.at('crawford'));
  assertOneOf(o.deadCube, ['refuse', 'allow'], f.at('deadCube'));
  if (o.evenTarget !== undefined) assertBoolean(o.evenTarget, f.at('evenTarget'));
}

function assertChouetteRules(v: unknown, f: Field): asserts v is ChouetteRules {
  assertCubeRules(v, f);
  const o = record(v, f);
  assertOneOf(o.cubes, ['per-member', 'single'], f.at('cubes'));
  assertNullable(o.partnerFrom, f.at('partnerFrom'), assertNumber);
  assertNumber(o.partnerShare, f.at('partnerShare'));
}

function assertPenalty(v: unknown, f: Field): asserts v is StoredPenalty {
  const o = record(v, f);
  assertNumber(o.seq, f.at('seq'));
  assertOneOf(o.side, [0, 1], f.at('side'));
  assertNumber(o.points, f.at('points'));
  assertString(o.reason, f.at('reason'));
  assertNumber(o.afterGameNo, f.at('afterGameNo'));
  assertString(o.at, f.at('at'));
  if (o.voided !== undefined) assertVoid(o.voided, f.at('voided'));
}

function assertVoid(v: unknown, f: Field): asserts v is StoredVoid {
  const o = record(v, f);
  assertString(o.at, f.at('at'));
  assertString(o.reason, f.at('reason'));
  assertString(o.by, f.at('by'));
}

function assertForfeit(v: unknown, f: Field): asserts v is StoredForfeit {
  const o = record(v, f);
  assertNumber(o.seq, f.at('seq'));
  assertOneOf(o.side, [0, 1], f.at('side'));
  assertOneOf(o.reason, FORFEIT_REASONS, f.at('reason'));
  assertNullable(o.note, f.at('note'), assertString);
  assertNumber(o.afterGameNo, f.at('afterGameNo'));
  assertNullable(o.abandonedGameNo, f.at('abandonedGameNo'), assertNumber);
  assertString(o.at, f.at('at'));
  if (o.voided !== undefined) assertVoid(o.voided, f.at('voided'));
}

function assertRatingChange(v: unknown, f: Field): asserts v is StoredRatingChange {
  const o = record(v, f);
  assertString(o.playerId, f.at('playerId'));
  assertNumber(o.delta, f.at('delta'));
  assertNumber(o.experience, f.at('experience'));
}

function assertSeats(v: unknown, f: Field): asserts v is ChouetteSeats {
  const o = record(v, f);
  assertString(o.box, f.at('box'));
  assertNullable(o.partner, f.at('partner'), assertString);
  assertStrings(o.line, f.at('line'));
  assertBoolean(o.partnerLeft, f.at('partnerLeft'));
}

function assertStake(v: unknown, f: Field): asserts v is PlayerStake {
  const o = record(v, f);
  assertString(o.playerId, f.at('playerId'));
  assertNumber(o.stakeMinor, f.at('stakeMinor'));
}

function assertMatchSetup(v: unknown, f: Field): asserts v is MatchTableSetup {
  const o = record(v, f);
  assertSides(o.sides, f.at('sides'));
  assertNumber(o.target, f.at('target'));
  assertMatchRules(o.rules, f.at('rules'));
  assertBoolean(o.hasCube, f.at('hasCube'));
  if (o.variant !== undefined) assertOneOf(o.variant, VARIANTS, f.at('variant'));
  if (o.scheduledAt !== undefined) assertString(o.scheduledAt, f.at('scheduledAt'));
  if (o.tournament !== undefined) {
    const t = record(o.tournament, f.at('tournament'));
    assertString(t.id, f.at('tournament').at('id'));
    assertString(t.flight, f.at('tournament').at('flight'));
    assertOneOf(t.bracket, ['main', 'consolation'] as const, f.at('tournament').at('bracket'));
    assertNumber(t.round, f.at('tournament').at('round'));
    assertNumber(t.pairing, f.at('tournament').at('pairing'));
  }
}

function assertMatchState(v: unknown, f: Field): asserts v is MatchTableState {
  const o = record(v, f);
  if (o.penalties !== undefined) assertArray(o.penalties, f.at('penalties'), assertPenalty);
  if (o.forfeits !== undefined) assertArray(o.forfeits, f.at('forfeits'), assertForfeit);
  if (o.ratings !== undefined) assertArray(o.ratings, f.at('ratings'), assertRatingChange);
}

function assertMoneySetup(v: unknown, f: Field): asserts v is MoneyTableSetup {
  const o = record(v, f);
  assertStrings(o.players, f.at('players'));
  if (o.players.length !== 2) throw f.error('two players', o.players);
  assertSides(o.sides, f.at('sides'));
  assertNumber(o.stakeMinor, f.at('stakeMinor'));
  assertCubeRules(o.rules, f.at('rules'));
  if (o.variant !== undefined) assertOneOf(o.variant, VARIANTS, f.at('variant'));
}

function assertMoneyState(v: unknown, f: Field): asserts v is MoneyTableState {
  record(v, f);
}

function assertChouetteSetup(v: unknown, f: Field): asserts v is ChouetteTableSetup {
  const o = record(v, f);
  assertChouetteRules(o.rules, f.at('rules'));
  assertArray(o.stakes, f.at('stakes'), assertStake);
  assertNumber(o.stakeMinor, f.at('stakeMinor'));
}

function assertChouetteState(v: unknown, f: Field): asserts v is ChouetteTableState {
  const o = record(v, f);
  assertSeats(o.seats, f.at('seats'));
}

/** A two-sided game's setup, of a match or a money game as `table` says. */
function assertTwoSidedGame(v: unknown, kind: Exclude<TableKind, 'chouette'>, f: Field): asserts v is GameSetup {
  const o = record(v, f);
  assertOneOf(o.table, [kind], f.at('table'));
  assertSides(o.sides, f.at('sides'));
  assertCubeRules(o.rules, f.at('rules'));
  assertOneOf(o.doubling, ['allowed', 'crawford', 'one-point-match'], f.at('doubling'));
  if (o.variant !== undefined) assertOneOf(o.variant, GAME_VARIANTS, f.at('variant'));
  if (o.match !== null) {
    const m = record(o.match, f.at('match'));
    assertArray(m.pointsToGo, f.at('match').at('pointsToGo'), assertNumber);
    if (m.pointsToGo.length !== 2) throw f.at('match').at('pointsToGo').error('two numbers', m.pointsToGo);
    assertOneOf(m.deadCube, ['refuse', 'allow'], f.at('match').at('deadCube'));
  }
}

function assertChouetteGameSetup(v: unknown, f: Field): asserts v is ChouetteGameSetup {
  const o = record(v, f);
  assertChouetteRules(o.rules, f.at('rules'));
  assertString(o.box, f.at('box'));
  assertNullable(o.partner, f.at('partner'), assertString);
  assertStrings(o.team, f.at('team'));
}

function assertChouetteGame(v: unknown, f: Field): asserts v is StoredChouetteGame {
  const o = record(v, f);
  assertOneOf(o.kind, ['chouette'], f.at('kind'));
  assertSeats(o.seatsBefore, f.at('seatsBefore'));
  assertSeats(o.seatsAtStart, f.at('seatsAtStart'));
  assertChouetteGameSetup(o.setup, f.at('setup'));
}

const ACTION_TYPES: ReadonlyArray<StoredAction['type']> = ['double', 'take', 'pass', 'beaver', 'raccoon', 'finish', 'resign-refused'];

function assertAction(v: unknown, f: Field): asserts v is StoredAction {
  const o = record(v, f);
  assertNumber(o.seq, f.at('seq'));
  assertOneOf(o.type, ACTION_TYPES, f.at('type'));
  if (o.by !== undefined) assertString(o.by, f.at('by'));
  if (o.cube !== undefined) assertNullable(o.cube, f.at('cube'), assertString);
  if (o.cubes !== undefined) assertStrings(o.cubes, f.at('cubes'));
  if (o.winner !== undefined) assertString(o.winner, f.at('winner'));
  if (o.result !== undefined) assertOneOf(o.result, VARIANT_RESULTS, f.at('result'));
  if (o.resigned !== undefined) assertBoolean(o.resigned, f.at('resigned'));
  if (o.offeredBy !== undefined) assertString(o.offeredBy, f.at('offeredBy'));
  if (o.checkersLeft !== undefined) assertNumber(o.checkersLeft, f.at('checkersLeft'));
  assertString(o.at, f.at('at'));
}

/** The JSON columns of a table of each kind, checked. */
const TABLE_JSON: { [K in TableKind]: (setup: unknown, state: unknown, f: Field) => { setup: TableSetups[K]; state: TableStates[K] } } = {
  match: (setup, state, f) => {
    assertMatchSetup(setup, f.at('setup'));
    assertMatchState(state, f.at('state'));
    return { setup, state };
  },
  money: (setup, state, f) => {
    assertMoneySetup(setup, f.at('setup'));
    assertMoneyState(state, f.at('state'));
    return { setup, state };
  },
  chouette: (setup, state, f) => {
    assertChouetteSetup(setup, f.at('setup'));
    assertChouetteState(state, f.at('state'));
    return { setup, state };
  },
};

/** The setup of a game at a table of each kind, checked. */
const GAME_SETUP: { [K in TableKind]: (setup: unknown, f: Field) => GameSetups[K] } = {
  match: (setup, f) => {
    assertTwoSidedGame(setup, 'match', f);
    return setup;
  },
  money: (setup, f) => {
    assertTwoSidedGame(setup, 'money', f);
    return setup;
  },
  chouette: (setup, f) => {
    assertChouetteGame(setup, f);
    return setup;
  },
};

/**
 * The JSON columns of a table of kind `kind`, checked (a team event's boards are read
 * with their setup and state only). `id` names the table in the message of a refusal.
 */
export function decodeTableJson<K extends TableKind>(kind: K, id: string, setup: unknown, state: unknown): { setup: TableSetups[K]; state: TableStates[K] } {
  return TABLE_JSON[kind](setup, state, tableField(id, kind));
}

/** A table row read where its kind is known (the query asked for it): its kind and JSON columns checked. */
export function decodeTable<K extends TableKind>(raw: RawTable, kind: K): TableRowOf<K> {
  if (raw.kind !== kind) throw tableField(raw.id, kind).at('kind').error(JSON.stringify(kind), raw.kind);
  const { setup, state } = decodeTableJson(kind, raw.id, raw.setup, raw.state);
  return {
    clubId: raw.clubId,
    id: raw.id,
    kind,
    sessionId: raw.sessionId,
    status: raw.status,
    setup,
    state,
    stakeMinor: raw.stakeMinor,
    nextGameNo: raw.nextGameNo,
    currentGameNo: raw.currentGameNo,
    version: raw.version,
    createdAt: raw.createdAt,
    updatedAt: raw.updatedAt,
  };
}

/** A table row of any kind: its kind (one of the three) and JSON columns checked. */
export function decodeAnyTable(raw: RawTable): StoredTable {
  const kind = TABLE_KINDS.find((k) => k === raw.kind);
  if (kind === undefined)
    throw tableField(raw.id, String(raw.kind))
      .at('kind')
      .error(`one of ${TABLE_KINDS.join(', ')}`, raw.kind);
  return decodeTable(raw, kind);
}

/**
 * A game row of a table of kind `kind`: its setup and action log checked. A game read
 * without its table's kind goes through here again once the kind is known
 * (`decodeGame(game, t.kind)`), which types its setup by that kind.
 */
export function decodeGame<K extends TableKind>(raw: RawGame, kind: K): StoredGame<K> {
  const f = gameField(raw.tableId, raw.gameNo);
  const setup = GAME_SETUP[kind](raw.setup, f.at('setup'));
  const actions = raw.actions;
  assertArray(actions, f.at('actions'), assertAction);
  return {
    clubId: raw.clubId,
    tableId: raw.tableId,
    gameNo: raw.gameNo,
    status: raw.status,
    automaticDoubles: raw.automaticDoubles,
    setup,
    actions,
    result: raw.result,
    points: raw.points,
    winnerSide: raw.winnerSide,
    startedAt: raw.startedAt,
    endedAt: raw.endedAt,
    voidedAt: raw.voidedAt,
    voidReason: raw.voidReason,
    voidedBy: raw.voidedBy,
    version: raw.version,
    players: raw.players,
  };
}

/** A chouette game's stored setup and action log, checked: statistics replay them outside the tables. */
export function decodeChouetteLog(label: string, setup: unknown, actions: unknown): { setup: ChouetteGameSetup; actions: StoredAction[] } {
  const f = new Field(label, '');
  assertChouetteGameSetup(setup, f.at('setup'));
  const log = actions ?? [];
  assertArray(log, f.at('actions'), assertAction);
  return { setup, actions: log };
}

/**
 * A game row read without its table's kind: the kind is the one its setup names (a
 * chouette game's `kind`, a two-sided game's `table`), then checked as such.
 */
export function decodeAnyGame(raw: RawGame): StoredGame {
  const named = isRecord(raw.setup) ? (raw.setup.kind ?? raw.setup.table) : undefined;
  const kind = TABLE_KINDS.find((k) => k === named);
  if (kind === undefined) throw gameField(raw.tableId, raw.gameNo).at('setup').error('the setup of a match, money or chouette game', raw.setup);
  return decodeGame(raw, kind);
}

/** An action as the rules take it (src/domain), from the request or from the stored log. */
export function toDomainAction(a: ActionDto | StoredAction): GameAction {
  if (a.type === 'finish') {
    return {
      type: 'finish',
      winner: a.winner,
      result: a.result,
      resigned: a.resigned ?? false,
      ...(a.offeredBy === undefined ? {} : { offeredBy: a.offeredBy }),
      ...(a.checkersLeft === undefined ? {} : { checkersLeft: a.checkersLeft }),
    };
  }
  if (a.type === 'resign-refused') {
    return { type: 'resign-refused', by: a.by as string, result: a.result, ...(a.checkersLeft === undefined ? {} : { checkersLeft: a.checkersLeft }) };
  }
  if (a.type === 'double') return { type: 'double', by: a.by as string, ...(a.cubes ? { cubes: a.cubes } : {}) };
  return { type: a.type, by: a.by as string, ...(a.cube ? { cube: a.cube } : {}) };
}
