import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { LedgerKind, minorFromDb } from '../ledger';
import { PaymentEntity } from '../payments';
import { SessionEntity } from '../sessions';

type Row = Record<string, unknown>;

export interface LedgerLine {
  id: string;
  tableId: string;
  tableKind: 'match' | 'money' | 'chouette';
  gameNo: number | null;
  from: string;
  to: string;
  amountMinor: number;
  kind: LedgerKind;
  at: Date;
}

/** One party's movements in one session: its ledger net and what it paid and received. */
export interface PartySessionRow {
  party: string;
  sessionId: string;
  currency: string;
  netMinor: number;
  games: number;
  paidMinor: number;
  receivedMinor: number;
}

const mapPayment = (r: Row): PaymentEntity => ({
  clubId: r.club_id as string,
  id: r.id as string,
  sessionId: r.session_id as string,
  fromParty: r.from_party as string,
  toParty: r.to_party as string,
  amountMinor: String(r.amount_minor),
  note: (r.note as string | null) ?? null,
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: r.created_at as Date,
});

/**
 * The reads behind statements, balances and the session ledger (R6.5, R6.6), and the
 * payments table. Every query is scoped by club_id.
 */
@Injectable()
export class SettlementRepository {
  async ledger(m: EntityManager, clubId: string, sessionId: string, f: { kind?: LedgerKind; party?: string }, after: string | null, limit: number): Promise<LedgerLine[]> {
    const params: unknown[] = [clubId, sessionId];
    let where = 'l.club_id = $1 AND l.session_id = $2';
    if (f.kind) where += ` AND l.kind = $${params.push(f.kind)}`;
    if (f.party) where += ` AND (l.from_party = $${params.push(f.party)} OR l.to_party = $${params.length})`;
    if (after) where += ` AND l.id > $${params.push(after)}`;
    const rows = await m.query(
      `SELECT l.id, l.table_id, t.kind AS table_kind, l.game_no, l.from_party, l.to_party, l.amount_minor, l.kind, l.created_at
         FROM ledger_entries l JOIN game_tables t ON t.club_id = l.club_id AND t.id = l.table_id
        WHERE ${where} ORDER BY l.id LIMIT $${params.push(limit + 1)}`,
      params,
    );
    return rows.map((r: Row) => ({
      id: r.id as string,
      tableId: r.table_id as string,
      tableKind: r.table_kind as LedgerLine['tableKind'],
      gameNo: (r.game_no as number | null) ?? null,
      from: r.from_party as string,
      to: r.to_party as string,
      amountMinor: minorFromDb(r.amount_minor),
      kind: r.kind as LedgerKind,
      at: r.created_at as Date,
    }));
  }

  /**
   * Every party's net and finished games in the session (its running totals, kept with
   * the ledger), and the time of the latest change.
   */
  async sessionTotals(m: EntityManager, clubId: string, sessionId: string): Promise<{ nets: Map<string, number>; games: Map<string, number>; latest: Date | null }> {
    const rows = await m.query(`SELECT party, net_minor::text AS net, games, last_at FROM session_totals WHERE club_id = $1 AND session_id = $2`, [clubId, sessionId]);
    let latest: Date | null = null;
    const nets = new Map<string, number>();
    const games = new Map<string, number>();
    for (const r of rows as Row[]) {
      nets.set(r.party as string, minorFromDb(r.net));
      games.set(r.party as string, r.games as number);
      const at = r.last_at as Date;
      if (!latest || at > latest) latest = at;
    }
    return { nets, games, latest };
  }

  /** The session's players: everyone seated at one of its tables, plus `alsoIds` (parties of its totals and payments). */
  async sessionPlayers(m: EntityManager, clubId: string, sessionId: string, alsoIds: string[]): Promise<Array<{ playerId: string; name: string }>> {
    const rows = await m.query(
      `SELECT pl.id, pl.name FROM players pl
        WHERE pl.club_id = $1
          AND (pl.id IN (SELECT tp.player_id FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
                          WHERE t.club_id = $1 AND t.session_id = $2)
               OR pl.id = ANY($3::uuid[]))`,
      [clubId, sessionId, alsoIds],
    );
    return rows.map((r: Row) => ({ playerId: r.id as string, name: r.name as string }));
  }

  async insertPayment(m: EntityManager, p: PaymentEntity): Promise<void> {
    await m.query(
      `INSERT INTO payments (club_id, id, session_id, from_party, to_party, amount_minor, note, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [p.clubId, p.id, p.sessionId, p.fromParty, p.toParty, p.amountMinor, p.note, p.createdBy, p.createdAt],
    );
  }

  async payments(m: EntityManager, clubId: string, sessionId: string, after: string | null = null, limit = 1_000_000): Promise<PaymentEntity[]> {
    const rows = await m.query(`SELECT * FROM payments WHERE club_id = $1 AND session_id = $2 AND ($3::uuid IS NULL OR id > $3) ORDER BY id LIMIT $4`, [clubId, sessionId, after, limit]);
    return rows.map(mapPayment);
  }

  /**
   * Per party and session: ledger net, finished games, paid and received (R6.6).
   * `party` narrows it to one player (or the house).
   */
  async partySessions(m: EntityManager, clubId: string, party?: string): Promise<PartySessionRow[]> {
    const params: unknown[] = [clubId];
    const totalsOnly = party === undefined ? '' : ` AND st.party = $${params.push(party)}`;
    const paymentsOnly = party === undefined ? '' : ` AND (y.from_party = $2 OR y.to_party = $2)`;
    const only = party === undefined ? '' : ` AND p.party = $2`;
    const rows = await m.query(
      `SELECT x.party, x.session_id, s.currency,
              sum(x.net)::text AS net, sum(x.games)::int AS games, sum(x.paid)::text AS paid, sum(x.received)::text AS received
         FROM (
           SELECT st.session_id, st.party, st.net_minor AS net, st.games, 0::bigint AS paid, 0::bigint AS received
             FROM session_totals st WHERE st.club_id = $1${totalsOnly}
           UNION ALL
           SELECT y.session_id, p.party, 0, 0, p.paid, p.received
             FROM payments y
            CROSS JOIN LATERAL (VALUES (y.from_party, y.amount_minor, 0::bigint), (y.to_party, 0::bigint, y.amount_minor)) AS p (party, paid, received)
            WHERE y.club_id = $1${paymentsOnly}${only}
         ) x
         JOIN sessions s ON s.club_id = $1 AND s.id = x.session_id
        GROUP BY x.party, x.session_id, s.currency`,
      params,
    );
    return rows.map((r: Row) => ({
      party: r.party as string,
      sessionId: r.session_id as string,
      currency: (r.currency as string).trim(),
      netMinor: minorFromDb(r.net),
      games: r.games as number,
      paidMinor: minorFromDb(r.paid),
      receivedMinor: minorFromDb(r.received),
    }));
  }

  /** Sessions in which the player sat at a table. */
  async seatedSessions(m: EntityManager, clubId: string, playerId: string): Promise<string[]> {
    const rows = await m.query(
      `SELECT DISTINCT t.session_id FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
        WHERE tp.club_id = $1 AND tp.player_id = $2 AND t.session_id IS NOT NULL`,
      [clubId, playerId],
    );
    return rows.map((r: Row) => r.session_id as string);
  }

  async sessions(m: EntityManager, clubId: string, ids: string[]): Promise<SessionEntity[]> {
    if (ids.length === 0) return [];
    return m.find(SessionEntity, { where: { clubId, id: In(ids) } });
  }
}
