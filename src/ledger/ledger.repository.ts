import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuid7 } from '../common/uuid';
import { defer } from '../db/write-batch';
import { grossDeltas, GrossMove, reportableMinor } from '../domain/money';
import { LedgerEntryEntity, LedgerKind } from './ledger-entry.entity';

export interface NewEntry {
  from: string;
  to: string;
  amountMinor: number;
  kind: LedgerKind;
}

type Row = Record<string, unknown>;

/**
 * Ledger amounts are BIGINT; they leave the database as safe integers or not at all: a
 * figure beyond ±(2^53 − 1) (only in data written before the bound was kept, see
 * addToVolumes) is refused as AMOUNT_OUT_OF_RANGE (422, R6.2) rather than rounded.
 */
export function minorFromDb(v: unknown): number {
  return reportableMinor(Number(v));
}

/**
 * R6.2 bound: adds `moves` to each party's gross money in the session's currency
 * (party_volumes), as one write of the command's batch. The table's CHECK refuses a
 * gross beyond 2^53 − 1, which fails the batch (nothing of the command is written) and
 * is answered 422 AMOUNT_OUT_OF_RANGE. Rows are upserted in party order, like the
 * session totals, so concurrent commands lock them in one order.
 */
export async function addToVolumes(m: EntityManager, clubId: string, sessionId: string, moves: GrossMove[]): Promise<void> {
  const deltas = grossDeltas(moves);
  if (deltas.size === 0) return;
  const params: unknown[] = [clubId, sessionId];
  const values = [...deltas.keys()]
    .sort()
    .map((party) => `($${params.push(party)}::text, $${params.push(deltas.get(party)!.toString())}::bigint)`)
    .join(', ');
  await defer(m, {
    what: 'party volumes',
    sql: `INSERT INTO party_volumes (club_id, party, currency, gross_minor)
      SELECT s.club_id, v.party, s.currency, v.gross FROM (VALUES ${values}) AS v (party, gross)
        JOIN sessions s ON s.club_id = $1 AND s.id = $2 ORDER BY v.party COLLATE "C"
      ON CONFLICT (club_id, party, currency) DO UPDATE SET gross_minor = party_volumes.gross_minor + excluded.gross_minor`,
    params,
  });
}

const mapEntry = (r: Row): LedgerEntryEntity => ({
  clubId: r.club_id as string,
  id: r.id as string,
  sessionId: r.session_id as string,
  tableId: r.table_id as string,
  gameNo: (r.game_no as number | null) ?? null,
  fromParty: r.from_party as string,
  toParty: r.to_party as string,
  amountMinor: String(r.amount_minor),
  kind: r.kind as LedgerKind,
  createdAt: r.created_at as Date,
});

/** The append-only ledger (R6.3): inserts and reads, never updates or deletes. */
@Injectable()
export class LedgerRepository {
  /**
   * Posts `entries` and adds them to the session's running totals, with `games.delta`
   * finished games for each of `games.players` (a finished game +1, a void −1).
   */
  async post(
    m: EntityManager,
    clubId: string,
    sessionId: string,
    tableId: string,
    gameNo: number | null,
    entries: NewEntry[],
    at: Date,
    games?: { players: string[]; delta: number },
  ): Promise<LedgerEntryEntity[]> {
    await this.addToTotals(m, clubId, sessionId, entries, games?.players ?? [], games?.delta ?? 0, at);
    if (entries.length === 0) return [];
    await addToVolumes(
      m,
      clubId,
      sessionId,
      entries.map((e) => ({ from: e.from, to: e.to, amountMinor: e.amountMinor, reverses: e.kind === 'void' })),
    );
    const rows: LedgerEntryEntity[] = entries.map((e) => ({
      clubId,
      id: uuid7(),
      sessionId,
      tableId,
      gameNo,
      fromParty: e.from,
      toParty: e.to,
      amountMinor: String(e.amountMinor),
      kind: e.kind,
      createdAt: at,
    }));
    const params: unknown[] = [clubId, sessionId, tableId, gameNo, at];
    const values = rows
      .map((e) => `($1, $${params.push(e.id)}, $2, $3, $4, $${params.push(e.fromParty)}, $${params.push(e.toParty)}, $${params.push(e.amountMinor)}, $${params.push(e.kind)}, $5)`)
      .join(', ');
    await defer(m, {
      what: 'ledger entries',
      sql: `INSERT INTO ledger_entries (club_id, id, session_id, table_id, game_no, from_party, to_party, amount_minor, kind, created_at) VALUES ${values}`,
      params,
      expectRows: rows.length,
    });
    return rows;
  }

  async forGame(m: EntityManager, clubId: string, tableId: string, gameNo: number): Promise<LedgerEntryEntity[]> {
    const rows = await m.query(`SELECT * FROM ledger_entries WHERE club_id = $1 AND table_id = $2 AND game_no = $3 ORDER BY id`, [clubId, tableId, gameNo]);
    return rows.map(mapEntry);
  }

  async forGames(m: EntityManager, clubId: string, tableId: string, fromGameNo: number, toGameNo: number): Promise<LedgerEntryEntity[]> {
    const rows = await m.query(`SELECT * FROM ledger_entries WHERE club_id = $1 AND table_id = $2 AND game_no BETWEEN $3 AND $4 ORDER BY id`, [clubId, tableId, fromGameNo, toGameNo]);
    return rows.map(mapEntry);
  }

  /** Every player's (and the house's) net at a table: received − paid, voids included. */
  async tableNets(m: EntityManager, clubId: string, tableId: string): Promise<Map<string, number>> {
    const rows = await m.query(
      `SELECT party, sum(amount)::text AS net FROM (
         SELECT to_party AS party, amount_minor AS amount FROM ledger_entries WHERE club_id = $1 AND table_id = $2
         UNION ALL
         SELECT from_party, -amount_minor FROM ledger_entries WHERE club_id = $1 AND table_id = $2
       ) x GROUP BY party`,
      [clubId, tableId],
    );
    return new Map(rows.map((r: Row) => [r.party as string, minorFromDb(r.net)]));
  }

  /**
   * Adds to the session's running totals (R6.5): each party's net from `entries`, and
   * `gamesDelta` finished games for each of `players` (+1 for a finished game, −1 for a
   * void). Rows are upserted in party order, so concurrent games lock them in one order.
   */
  private async addToTotals(
    m: EntityManager,
    clubId: string,
    sessionId: string,
    entries: Array<{ from: string; to: string; amountMinor: number }>,
    players: string[],
    gamesDelta: number,
    at: Date,
  ): Promise<void> {
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
    if (acc.size === 0) return;
    const params: unknown[] = [clubId, sessionId, at];
    const values = [...acc.keys()]
      .sort()
      .map((party) => `($1, $2, $${params.push(party)}, $${params.push(acc.get(party)!.net.toString())}::bigint, $${params.push(acc.get(party)!.games)}::int, $3)`)
      .join(', ');
    await defer(m, {
      what: 'session totals',
      sql: `INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at) VALUES ${values}
       ON CONFLICT (club_id, session_id, party) DO UPDATE
         SET net_minor = session_totals.net_minor + excluded.net_minor,
             games = session_totals.games + excluded.games,
             last_at = greatest(session_totals.last_at, excluded.last_at)`,
      params,
    });
  }
}
