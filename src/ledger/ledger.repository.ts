import { Injectable } from '@nestjs/common';
import { uuid7 } from '../common/uuid';
import { cols, Decoder } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { lockPlayersFirst, touchPlayers } from '../db/player-rows';
import { grossDeltas, reportableMinor } from '../domain/money';
import { HOUSE } from '../domain/settlement';
import { LedgerEntryEntity, LedgerKind } from './ledger-entry.entity';

export interface NewEntry {
  from: string;
  to: string;
  amountMinor: number;
  kind: LedgerKind;
}

/** Every kind of ledger entry (R6.3). */
export const LEDGER_KINDS: readonly LedgerKind[] = ['game', 'void', 'match-stake', 'rake', 'entry-fee', 'prize'];

/**
 * Ledger amounts are BIGINT; they leave the database as safe integers or not at all: a
 * figure beyond ±(2^53 − 1) (only in data written before the bound was kept, see
 * addToParties) is refused as AMOUNT_OUT_OF_RANGE (422, R6.2) rather than rounded.
 */
export function minorFromDb(v: unknown): number {
  return reportableMinor(Number(v));
}

/** What a command changes of one party's money in one currency (party_volumes); every field a delta. */
export interface PartyMoney {
  /** R6.2: gross money (see grossDeltas). */
  gross: bigint;
  /** Ledger net: received − paid over its entries. */
  net: bigint;
  /** Payments made and received (R6.6). */
  paid: bigint;
  received: bigint;
  /** It has (now) a running total in a session of this currency. */
  hasTotals: boolean;
}

/** The party's entry of `parties`, added (all zero) when it has none. */
function moneyOf(parties: Map<string, PartyMoney>, party: string): PartyMoney {
  let m = parties.get(party);
  if (!m) parties.set(party, (m = { gross: 0n, net: 0n, paid: 0n, received: 0n, hasTotals: false }));
  return m;
}

/** The session money is posted in: its id and its currency (read in the command's transaction). */
export interface PostingSession {
  id: string;
  currency: string;
}

/**
 * Adds to each party's money in the session's currency (party_volumes), as one deferred
 * write of the command (sent with its COMMIT): R6.2's gross bound, and the read model of
 * balances (net + paid − received, R6.6) and of a player's money statistics. The table's
 * CHECK refuses a gross beyond 2^53 − 1, which fails the batch (nothing of the command is
 * written) and is answered 422 AMOUNT_OUT_OF_RANGE. Rows are upserted in party order (the
 * parties are ids and 'house', ASCII, so JavaScript's order is PostgreSQL's "C" order), like
 * the session totals, so concurrent commands lock them in one order.
 */
export function addToParties(tx: Tx, clubId: string, session: PostingSession, parties: ReadonlyMap<string, PartyMoney>): void {
  lockPartiesFirst(tx, clubId, parties.keys());
  // A player's page shows his net per currency (the rows with totals): his version goes up with it.
  touchPlayers(
    tx,
    clubId,
    [...parties].filter(([party, m]) => party !== HOUSE && (m.net !== 0n || m.hasTotals)).map(([party]) => party),
  );
  // One upsert per currency per command: a second posting of the same command (a match's
  // stake and a tournament's prizes) is merged into the first.
  tx.deferMerged<Map<string, PartyMoney>>(
    `party volumes:${session.currency}`,
    (merged = new Map<string, PartyMoney>()) => {
      for (const [party, m] of parties) {
        const into = moneyOf(merged, party);
        into.gross += m.gross;
        into.net += m.net;
        into.paid += m.paid;
        into.received += m.received;
        into.hasTotals ||= m.hasTotals;
      }
      return merged;
    },
    (merged) => {
      const changed = [...merged.entries()].filter(([, m]) => m.gross !== 0n || m.net !== 0n || m.paid !== 0n || m.received !== 0n || m.hasTotals);
      if (changed.length === 0) return null;
      changed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const values: unknown[] = [clubId, session.currency];
      const rows = changed
        .map(
          ([party, m]) =>
            `($1, $${values.push(party)}, $2, $${values.push(m.gross.toString())}::bigint, $${values.push(m.net.toString())}::bigint, $${values.push(m.paid.toString())}::bigint, $${values.push(m.received.toString())}::bigint, $${values.push(m.hasTotals)}::boolean)`,
        )
        .join(', ');
      const text = `INSERT INTO party_volumes (club_id, party, currency, gross_minor, net_minor, paid_minor, received_minor, has_totals)
      VALUES ${rows}
      ON CONFLICT (club_id, party, currency) DO UPDATE
        SET gross_minor = party_volumes.gross_minor + excluded.gross_minor,
            net_minor = party_volumes.net_minor + excluded.net_minor,
            paid_minor = party_volumes.paid_minor + excluded.paid_minor,
            received_minor = party_volumes.received_minor + excluded.received_minor,
            has_totals = party_volumes.has_totals OR excluded.has_totals`;
      return { what: 'party volumes', text, values };
    },
  );
}

/**
 * The parties' locks, taken ahead of the command's batch (Tx.lockFirst): the players'
 * rows in id order, then the house's lock of the club (rank 1, a transaction-scoped
 * advisory lock), since the house's rows (its volumes, its session totals) are shared by
 * every raked game of the club. Every command takes them in this one order, so the rows
 * behind them (party_volumes, session_totals, party_sessions, player_stats) are never
 * held by two commands in opposite orders.
 */
function lockPartiesFirst(tx: Tx, clubId: string, parties: Iterable<string>): void {
  const players: string[] = [];
  let house = false;
  for (const p of parties) {
    if (p === HOUSE) house = true;
    else players.push(p);
  }
  if (players.length) lockPlayersFirst(tx, clubId, players);
  if (house)
    tx.lockFirst<true>(
      1,
      `house:${clubId}`,
      () => true,
      () => ({ text: LOCK_HOUSE, values: [`bg_house/${clubId}`] }),
    );
}

const LOCK_HOUSE = `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`;

/** A payment (R6.6) in party_volumes: its gross (R6.2) for both parties, paid by one and received by the other. */
export function addPaymentToParties(tx: Tx, clubId: string, session: PostingSession, p: { from: string; to: string; amountMinor: number }): void {
  const parties = new Map<string, PartyMoney>();
  for (const [party, gross] of grossDeltas([p])) moneyOf(parties, party).gross = gross;
  moneyOf(parties, p.from).paid += BigInt(p.amountMinor);
  moneyOf(parties, p.to).received += BigInt(p.amountMinor);
  addToParties(tx, clubId, session, parties);
}

/**
 * Adds `entries` to the table's running nets (table_nets: each party's received − paid at
 * the table), as one deferred write of the command (sent with its COMMIT). A second posting
 * of the same command at the same table is merged into the first, as for party_volumes
 * (addToParties). The command holds the table's lock, so no other command upserts these
 * rows meanwhile; they are upserted in party order all the same. Every party of the entries
 * gets its row, even one whose net they leave as it was, like the sum over the ledger.
 */
function addToTableNets(tx: Tx, clubId: string, tableId: string, entries: ReadonlyArray<{ from: string; to: string; amountMinor: number }>): void {
  tx.deferMerged<Map<string, bigint>>(
    `table nets:${tableId}`,
    (nets = new Map<string, bigint>()) => {
      for (const e of entries) {
        nets.set(e.from, (nets.get(e.from) ?? 0n) - BigInt(e.amountMinor));
        nets.set(e.to, (nets.get(e.to) ?? 0n) + BigInt(e.amountMinor));
      }
      return nets;
    },
    (nets) => {
      if (nets.size === 0) return null;
      const values: unknown[] = [clubId, tableId];
      const rows = [...nets.keys()]
        .sort()
        .map((party) => `($1, $2, $${values.push(party)}, $${values.push(nets.get(party)!.toString())}::bigint)`)
        .join(', ');
      const text = `INSERT INTO table_nets (club_id, table_id, party, net_minor) VALUES ${rows}
      ON CONFLICT (club_id, table_id, party) DO UPDATE SET net_minor = table_nets.net_minor + excluded.net_minor`;
      return { what: 'table nets', text, values };
    },
  );
}

const decodeEntry: Decoder<LedgerEntryEntity> = (r) => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    sessionId: c.text('session_id'),
    tableId: c.text('table_id'),
    gameNo: c.intOrNull('game_no'),
    fromParty: c.text('from_party'),
    toParty: c.text('to_party'),
    amountMinor: c.bigintText('amount_minor'),
    kind: c.oneOf('kind', LEDGER_KINDS),
    createdAt: c.date('created_at'),
  };
};

/** The append-only ledger (R6.3): inserts and reads, never updates or deletes. */
@Injectable()
export class LedgerRepository {
  /**
   * Posts `entries` and adds them to the session's running totals, with `games.delta`
   * finished games for each of `games.players` (a finished game +1, a void −1), and to
   * the table's running nets (table_nets).
   *
   * Reads nothing and writes nothing at once: every write is deferred to the command's
   * COMMIT (session totals, party volumes, table nets, ledger entries), so the command's
   * reads and immediate writes must all come before this call, and none of them sees
   * these rows.
   * (It answers a promise, as callers await it, though nothing is sent before COMMIT.)
   */
  post(
    tx: Tx,
    clubId: string,
    session: PostingSession,
    tableId: string,
    gameNo: number | null,
    entries: NewEntry[],
    at: Date,
    games?: { players: string[]; delta: number },
  ): Promise<LedgerEntryEntity[]> {
    return Promise.resolve(this.postOf(tx, clubId, session, { tableId, tournamentId: null }, gameNo, entries, at, games));
  }

  /** R9.9: a tournament's entry fees, prizes and their reversals: entries of no table, posted as `post` posts. */
  postForTournament(tx: Tx, clubId: string, session: PostingSession, tournamentId: string, entries: NewEntry[], at: Date): void {
    this.postOf(tx, clubId, session, { tableId: null, tournamentId }, null, entries, at);
  }

  private postOf(
    tx: Tx,
    clubId: string,
    session: PostingSession,
    owner: { tableId: string | null; tournamentId: string | null },
    gameNo: number | null,
    entries: NewEntry[],
    at: Date,
    games?: { players: string[]; delta: number },
  ): LedgerEntryEntity[] {
    const { tableId, tournamentId } = owner;
    const sessionId = session.id;
    const totals = this.addToTotals(tx, clubId, sessionId, entries, games?.players ?? [], games?.delta ?? 0, at);
    // Every party of the session's totals: its net, and that it has a total in this currency.
    const parties = new Map<string, PartyMoney>();
    for (const [party, t] of totals) Object.assign(moneyOf(parties, party), { net: t.net, hasTotals: true });
    for (const [party, gross] of grossDeltas(entries.map((e) => ({ from: e.from, to: e.to, amountMinor: e.amountMinor, reverses: e.kind === 'void' })))) {
      moneyOf(parties, party).gross = gross;
    }
    addToParties(tx, clubId, session, parties);
    if (entries.length === 0) return [];
    if (tableId !== null) addToTableNets(tx, clubId, tableId, entries);
    const rows: LedgerEntryEntity[] = entries.map((e) => ({
      clubId,
      id: uuid7(),
      sessionId,
      tableId: tableId as string,
      gameNo,
      fromParty: e.from,
      toParty: e.to,
      amountMinor: String(e.amountMinor),
      kind: e.kind,
      createdAt: at,
    }));
    const values: unknown[] = [clubId, sessionId, tableId, gameNo, at, tournamentId];
    const tuples = rows
      .map((e) => `($1, $${values.push(e.id)}, $2, $3, $4, $${values.push(e.fromParty)}, $${values.push(e.toParty)}, $${values.push(e.amountMinor)}, $${values.push(e.kind)}, $5, $6::uuid)`)
      .join(', ');
    tx.defer({
      what: 'ledger entries',
      text: `INSERT INTO ledger_entries (club_id, id, session_id, table_id, game_no, from_party, to_party, amount_minor, kind, created_at, tournament_id) VALUES ${tuples}`,
      values,
      guard: rows.length,
    });
    return rows;
  }

  forGame(tx: Reads, clubId: string, tableId: string, gameNo: number): Promise<LedgerEntryEntity[]> {
    return tx.rows(`SELECT * FROM ledger_entries WHERE club_id = $1 AND table_id = $2 AND game_no = $3 ORDER BY id`, [clubId, tableId, gameNo], decodeEntry);
  }

  /** A match's entries of no game (R3.8: the stake a penalty or a forfeit ended it with, and their reversals). */
  stakeEntries(tx: Reads, clubId: string, tableId: string): Promise<LedgerEntryEntity[]> {
    return tx.rows(`SELECT * FROM ledger_entries WHERE club_id = $1 AND table_id = $2 AND game_no IS NULL ORDER BY id`, [clubId, tableId], decodeEntry);
  }

  forGames(tx: Reads, clubId: string, tableId: string, fromGameNo: number, toGameNo: number): Promise<LedgerEntryEntity[]> {
    return tx.rows(`SELECT * FROM ledger_entries WHERE club_id = $1 AND table_id = $2 AND game_no BETWEEN $3 AND $4 ORDER BY id`, [clubId, tableId, fromGameNo, toGameNo], decodeEntry);
  }

  /**
   * Adds to the session's running totals (R6.5): each party's net from `entries`, and
   * `gamesDelta` finished games for each of `players` (+1 for a finished game, −1 for a
   * void), as a deferred write. Rows are upserted in party order, so concurrent games
   * lock them in one order.
   */
  private addToTotals(
    tx: Tx,
    clubId: string,
    sessionId: string,
    entries: Array<{ from: string; to: string; amountMinor: number }>,
    players: string[],
    gamesDelta: number,
    at: Date,
  ): Map<string, { net: bigint; games: number }> {
    const acc = new Map<string, { net: bigint; games: number }>();
    const row = (party: string) => {
      let r = acc.get(party);
      if (!r) acc.set(party, (r = { net: 0n, games: 0 }));
      return r;
    };
    for (const e of entries) {
      row(e.from).net -= BigInt(e.amountMinor);
      row(e.to).net += BigInt(e.amountMinor);
    }
    for (const p of players) row(p).games += gamesDelta;
    lockPartiesFirst(tx, clubId, acc.keys());
    // One upsert per session per command, as for party_volumes (addToParties). It carries
    // this posting and any earlier one of the command; the answer is this posting's own.
    tx.deferMerged<{ rows: Map<string, { net: bigint; games: number }>; at: Date | null }>(
      `session totals:${sessionId}`,
      (merged = { rows: new Map(), at: null }) => {
        for (const [party, r] of acc) {
          const into = merged.rows.get(party) ?? { net: 0n, games: 0 };
          merged.rows.set(party, { net: into.net + r.net, games: into.games + r.games });
        }
        // The latest posting's time, of those that wrote.
        if (merged.rows.size > 0 && (merged.at === null || at > merged.at)) merged.at = at;
        return merged;
      },
      ({ rows, at: last }) => {
        if (rows.size === 0) return null;
        const values: unknown[] = [clubId, sessionId, last];
        const tuples = [...rows.keys()]
          .sort()
          .map((party) => `($1, $2, $${values.push(party)}, $${values.push(rows.get(party)!.net.toString())}::bigint, $${values.push(rows.get(party)!.games)}::int, $3)`)
          .join(', ');
        const text = `INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at) VALUES ${tuples}
       ON CONFLICT (club_id, session_id, party) DO UPDATE
         SET net_minor = session_totals.net_minor + excluded.net_minor,
             games = session_totals.games + excluded.games,
             last_at = greatest(session_totals.last_at, excluded.last_at)`;
        return { what: 'session totals', text, values };
      },
    );
    return acc;
  }
}
