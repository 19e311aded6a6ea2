import { Injectable } from '@nestjs/common';
import { TABLE_KINDS, type TableKind } from '../domain/table-kinds';
import { cols, Decoder } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { LEDGER_KINDS, LedgerKind, minorFromDb } from '../ledger';
import { PaymentEntity } from '../payments';
import { decodeSession, SessionEntity } from '../sessions';
import { sideOf } from '../player-stats';
import { decodeTableJson, type MatchTableSetup, type MatchTableState } from '../tables';
import { decodeTournament, type TournamentRow } from '../tournaments';

/** A finished match of a session with its finished games, as the statement reads it. */
export interface SessionMatchRow {
  id: string;
  setup: MatchTableSetup;
  state: MatchTableState;
  stakeMinor: number | null;
  games: Array<{ gameNo: number; winnerSide: 0 | 1; points: number; endedAt: Date | null }>;
}

export interface LedgerLine {
  id: string;
  /** The table's entry: its table; a tournament's (R9.9): its tournament. */
  owner: { tableId: string; tableKind: TableKind } | { tournamentId: string };
  gameNo: number | null;
  from: string;
  to: string;
  amountMinor: number;
  kind: LedgerKind;
  at: Date;
}

/** One party's movements in one session: its ledger net and what it paid and received. */
export interface PartySessionRow {
  sessionId: string;
  netMinor: number;
  games: number;
  paidMinor: number;
  receivedMinor: number;
}

/** A party's money in one currency: ledger net, paid and received (R6.6). */
export interface PartyMoneyRow {
  currency: string;
  net: bigint;
  paid: bigint;
  received: bigint;
}

/** A session with its date (`startsAt`, else creation) as a page key: RFC 3339 UTC to the microsecond. */
export type DatedSession = SessionEntity & { datedKey: string };

const decodeMoney: Decoder<PartyMoneyRow> = (r) => {
  const c = cols(r);
  return { currency: c.currency('currency'), net: BigInt(c.bigintText('net')), paid: BigInt(c.bigintText('paid')), received: BigInt(c.bigintText('received')) };
};

const decodePayment: Decoder<PaymentEntity> = (r) => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    sessionId: c.text('session_id'),
    fromParty: c.text('from_party'),
    toParty: c.text('to_party'),
    amountMinor: c.bigintText('amount_minor'),
    note: c.textOrNull('note'),
    createdBy: c.textOrNull('created_by'),
    createdAt: c.date('created_at'),
  };
};

/**
 * The reads behind statements, balances and the session ledger (R6.5, R6.6), and the
 * payments table. Every query is scoped by club_id.
 */
@Injectable()
export class SettlementRepository {
  ledger(tx: Reads, clubId: string, sessionId: string, f: { kind?: LedgerKind; party?: string }, after: string | null, limit: number): Promise<LedgerLine[]> {
    const params: unknown[] = [clubId, sessionId];
    let where = 'l.club_id = $1 AND l.session_id = $2';
    if (f.kind) where += ` AND l.kind = $${params.push(f.kind)}`;
    if (f.party) where += ` AND (l.from_party = $${params.push(f.party)} OR l.to_party = $${params.length})`;
    if (after) where += ` AND l.id > $${params.push(after)}`;
    return tx.rows(
      `SELECT l.id, l.table_id, t.kind AS table_kind, l.tournament_id, l.game_no, l.from_party, l.to_party, l.amount_minor, l.kind, l.created_at
         FROM ledger_entries l LEFT JOIN game_tables t ON t.club_id = l.club_id AND t.id = l.table_id
        WHERE ${where} ORDER BY l.id LIMIT $${params.push(limit + 1)}`,
      params,
      (r) => {
        const c = cols(r);
        return {
          id: c.text('id'),
          owner: c.textOrNull('tournament_id') === null ? { tableId: c.text('table_id'), tableKind: c.oneOf('table_kind', TABLE_KINDS) } : { tournamentId: c.text('tournament_id') },
          gameNo: c.intOrNull('game_no'),
          from: c.text('from_party'),
          to: c.text('to_party'),
          amountMinor: minorFromDb(c.bigintText('amount_minor')),
          kind: c.oneOf('kind', LEDGER_KINDS),
          at: c.date('created_at'),
        };
      },
    );
  }

  /**
   * Every party's net and finished games in the session (its running totals, kept with
   * the ledger), and the time of the latest change.
   */
  /**
   * The session's finished matches (R3.2, R3.9) with their finished games, or only those
   * of `ids`: two queries whatever their number.
   */
  async finishedMatches(tx: Reads, clubId: string, sessionId: string, ids?: readonly string[]): Promise<SessionMatchRow[]> {
    if (ids && ids.length === 0) return [];
    const matches = await tx.rows(
      `SELECT id, setup, state, stake_minor::text AS stake FROM game_tables
        WHERE club_id = $1 AND session_id = $2 AND kind = 'match' AND status = 'finished'${ids ? ' AND id = ANY($3::uuid[])' : ''} ORDER BY id`,
      ids ? [clubId, sessionId, ids] : [clubId, sessionId],
      (r): SessionMatchRow => {
        const c = cols(r);
        const id = c.text('id');
        const { setup, state } = decodeTableJson('match', id, c.json('setup'), c.json('state'));
        const stake = c.textOrNull('stake');
        return { id, setup, state, stakeMinor: stake === null ? null : minorFromDb(stake), games: [] };
      },
    );
    if (matches.length === 0) return [];
    const byId = new Map(matches.map((m) => [m.id, m]));
    await tx.rows(
      `SELECT table_id, game_no, winner_side, points, ended_at FROM games
        WHERE club_id = $1 AND table_id = ANY($2::uuid[]) AND status = 'finished' ORDER BY table_id, game_no`,
      [clubId, [...byId.keys()]],
      (r) => {
        const c = cols(r);
        byId.get(c.text('table_id'))?.games.push({ gameNo: c.int('game_no'), winnerSide: sideOf(c, 'winner_side'), points: c.int('points'), endedAt: c.dateOrNull('ended_at') });
        return null;
      },
    );
    return matches;
  }

  /** The session's tournaments (R9.9), oldest first. */
  tournaments(tx: Reads, clubId: string, sessionId: string): Promise<TournamentRow[]> {
    return tx.rows(
      `SELECT t.*, s.currency FROM tournaments t JOIN sessions s ON s.club_id = t.club_id AND s.id = t.session_id WHERE t.club_id = $1 AND t.session_id = $2 ORDER BY t.id`,
      [clubId, sessionId],
      decodeTournament,
    );
  }

  async sessionTotals(tx: Reads, clubId: string, sessionId: string): Promise<{ nets: Map<string, number>; games: Map<string, number>; latest: Date | null }> {
    const rows = await tx.rows(`SELECT party, net_minor::text AS net, games, last_at FROM session_totals WHERE club_id = $1 AND session_id = $2`, [clubId, sessionId], (r) => {
      const c = cols(r);
      return { party: c.text('party'), net: minorFromDb(c.text('net')), games: c.int('games'), at: c.date('last_at') };
    });
    let latest: Date | null = null;
    const nets = new Map<string, number>();
    const games = new Map<string, number>();
    for (const r of rows) {
      nets.set(r.party, r.net);
      games.set(r.party, r.games);
      if (!latest || r.at > latest) latest = r.at;
    }
    return { nets, games, latest };
  }

  /** The session's players: everyone seated at one of its tables, plus `alsoIds` (parties of its totals and payments). */
  sessionPlayers(tx: Reads, clubId: string, sessionId: string, alsoIds: string[]): Promise<Array<{ playerId: string; name: string }>> {
    return tx.rows(
      `SELECT pl.id, pl.name FROM players pl
        WHERE pl.club_id = $1
          AND (pl.id IN (SELECT tp.player_id FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
                          WHERE t.club_id = $1 AND t.session_id = $2)
               OR pl.id = ANY($3::uuid[]))`,
      [clubId, sessionId, alsoIds],
      (r) => {
        const c = cols(r);
        return { playerId: c.text('id'), name: c.text('name') };
      },
    );
  }

  /** A new payment, written with the command's COMMIT (nothing in the command reads it back). */
  insertPayment(tx: Tx, p: PaymentEntity): void {
    tx.defer({
      what: 'payment',
      text: `INSERT INTO payments (club_id, id, session_id, from_party, to_party, amount_minor, note, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      values: [p.clubId, p.id, p.sessionId, p.fromParty, p.toParty, p.amountMinor, p.note, p.createdBy, p.createdAt],
    });
  }

  payments(tx: Reads, clubId: string, sessionId: string, after: string | null = null, limit = 1_000_000): Promise<PaymentEntity[]> {
    return tx.rows(`SELECT * FROM payments WHERE club_id = $1 AND session_id = $2 AND ($3::uuid IS NULL OR id > $3) ORDER BY id LIMIT $4`, [clubId, sessionId, after, limit], decodePayment);
  }

  /**
   * Per session of `sessionIds` (a statement's page): the party's ledger net, finished
   * games, paid and received (R6.6). Index lookups per session (session_totals' key,
   * payments_session_ix), whatever the party's history.
   */
  partySessions(tx: Reads, clubId: string, party: string, sessionIds: string[]): Promise<PartySessionRow[]> {
    if (sessionIds.length === 0) return Promise.resolve([]);
    return tx.rows(
      `SELECT x.session_id, sum(x.net)::text AS net, sum(x.games)::int AS games, sum(x.paid)::text AS paid, sum(x.received)::text AS received
         FROM (
           SELECT st.session_id, st.net_minor AS net, st.games, 0::bigint AS paid, 0::bigint AS received
             FROM session_totals st WHERE st.club_id = $1 AND st.session_id = ANY($3::uuid[]) AND st.party = $2
           UNION ALL
           SELECT y.session_id, 0, 0, CASE WHEN y.from_party = $2 THEN y.amount_minor ELSE 0 END, CASE WHEN y.to_party = $2 THEN y.amount_minor ELSE 0 END
             FROM payments y WHERE y.club_id = $1 AND y.session_id = ANY($3::uuid[]) AND (y.from_party = $2 OR y.to_party = $2)
         ) x
        GROUP BY x.session_id`,
      [clubId, party, sessionIds],
      (r) => {
        const c = cols(r);
        return {
          sessionId: c.text('session_id'),
          netMinor: minorFromDb(c.text('net')),
          games: c.int('games'),
          paidMinor: minorFromDb(c.text('paid')),
          receivedMinor: minorFromDb(c.text('received')),
        };
      },
    );
  }

  /** The payments of `sessionIds` the party made or received (R6.6), by id. */
  async partyPayments(tx: Reads, clubId: string, party: string, sessionIds: string[]): Promise<PaymentEntity[]> {
    if (sessionIds.length === 0) return [];
    return tx.rows(
      `SELECT * FROM payments WHERE club_id = $1 AND session_id = ANY($3::uuid[]) AND (from_party = $2 OR to_party = $2) ORDER BY id`,
      [clubId, party, sessionIds],
      decodePayment,
    );
  }

  /**
   * R6.6: each party's running money per currency over every session (party_volumes: net,
   * paid and received, its balance computed by the domain): one row per party and
   * currency, whatever the history. `party` narrows it to one party.
   */
  partyBalances(tx: Reads, clubId: string, party?: string): Promise<Array<PartyMoneyRow & { party: string }>> {
    return tx.rows(
      `SELECT party, currency, net_minor::text AS net, paid_minor::text AS paid, received_minor::text AS received FROM party_volumes
        WHERE club_id = $1 AND ($2::text IS NULL OR party = $2) AND (has_totals OR paid_minor <> 0 OR received_minor <> 0)`,
      [clubId, party ?? null],
      (r) => ({ party: cols(r).text('party'), ...decodeMoney(r) }),
    );
  }

  /** The party's running money per currency (party_volumes, R6.6): net, paid and received over every session. */
  partyMoney(tx: Reads, clubId: string, party: string): Promise<PartyMoneyRow[]> {
    return tx.rows(
      `SELECT currency, net_minor::text AS net, paid_minor::text AS paid, received_minor::text AS received FROM party_volumes
        WHERE club_id = $1 AND party = $2 AND (has_totals OR paid_minor <> 0 OR received_minor <> 0)`,
      [clubId, party],
      decodeMoney,
    );
  }

  /**
   * The party's money per currency over his sessions dated (`startsAt`, else creation) in
   * [`since`, `until`) (either end open when null), each marked `after` when dated at or
   * after `splitAt`: what a statement over a range needs besides the running money. Reads
   * his own sessions in the range on party_sessions_dated_ix with, for each, index lookups
   * of his total and payments (scalar subqueries, kept per row): its cost is that of his
   * sessions read, not of the club's or of his history outside them.
   */
  partyMoneyDated(tx: Reads, clubId: string, party: string, since: Date | null, until: Date | null, splitAt: Date | null): Promise<Array<PartyMoneyRow & { after: boolean }>> {
    const params: unknown[] = [clubId, party];
    let where = 'ps.club_id = $1 AND ps.party = $2';
    if (since) where += ` AND ps.dated >= $${params.push(since)}`;
    if (until) where += ` AND ps.dated < $${params.push(until)}`;
    const after = splitAt ? `ps.dated >= $${params.push(splitAt)}` : 'false';
    return tx.rows(
      `SELECT currency, after, coalesce(sum(net), 0)::text AS net, coalesce(sum(paid), 0)::text AS paid, coalesce(sum(received), 0)::text AS received
         FROM (
           SELECT s.currency, ${after} AS after,
                  (SELECT st.net_minor FROM session_totals st WHERE st.club_id = ps.club_id AND st.session_id = ps.session_id AND st.party = $2) AS net,
                  y.paid, y.received
             FROM party_sessions ps
             JOIN sessions s ON s.club_id = ps.club_id AND s.id = ps.session_id
            CROSS JOIN LATERAL (
              SELECT sum(p.amount_minor) FILTER (WHERE p.from_party = $2) AS paid, sum(p.amount_minor) FILTER (WHERE p.to_party = $2) AS received
                FROM payments p WHERE p.club_id = ps.club_id AND p.session_id = ps.session_id AND (p.from_party = $2 OR p.to_party = $2)
            ) y
            WHERE ${where}
         ) x
        WHERE net IS NOT NULL OR paid IS NOT NULL OR received IS NOT NULL
        GROUP BY currency, after`,
      params,
      (r) => ({ ...decodeMoney(r), after: cols(r).bool('after') }),
    );
  }

  /**
   * A page of the sessions the party played in (a running total), paid or was paid in, or
   * sat at a table of, dated in [`from`, `toEnd`): by date (`startsAt`, else creation), then
   * id, after the key `after` (a date key and an id). Reads the party's own rows of
   * party_sessions (kept with those writes) in that order on party_sessions_dated_ix from
   * the key on, each joined to its session by key, and stops at `limit`: a page costs its
   * own sessions, whatever the club's or the party's history before or after it.
   */
  statementSessions(tx: Reads, clubId: string, party: string, range: { from: Date | null; toEnd: Date | null }, after: [string, string] | null, limit: number): Promise<DatedSession[]> {
    const params: unknown[] = [clubId, party];
    let where = 'ps.club_id = $1 AND ps.party = $2';
    if (range.from) where += ` AND ps.dated >= $${params.push(range.from)}`;
    if (range.toEnd) where += ` AND ps.dated < $${params.push(range.toEnd)}`;
    if (after) where += ` AND (ps.dated, ps.session_id) > ($${params.push(after[0])}::timestamptz, $${params.push(after[1])}::uuid)`;
    return tx.rows(
      `SELECT s.*, to_char(ps.dated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS dated_key
         FROM party_sessions ps
         JOIN sessions s ON s.club_id = ps.club_id AND s.id = ps.session_id
        WHERE ${where}
        ORDER BY ps.dated, ps.session_id
        LIMIT $${params.push(limit)}`,
      params,
      (r) => ({ ...decodeSession(r), datedKey: cols(r).text('dated_key') }),
    );
  }
}
