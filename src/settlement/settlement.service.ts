import { Injectable } from '@nestjs/common';
import { TABLE_KIND_NAMES } from '../domain/table-kinds';
import { ApiError, notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { ErrorCode } from '../common/error-codes';
import { decodeCursor, encodeCursor, Page, PAGE_LIMIT, toPage } from '../common/pagination';
import { isUuid, uuid7 } from '../common/uuid';
import { ClubsRepository } from '../clubs';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads } from '../db/tx';
import { dayStartInZone, nextDay } from '../domain/zoned-time';
import type { ReadSource } from '../common/read-source';
import { Outbox } from '../outbox/outbox';
import { assertPaymentBetweenTwoParties } from '../domain/session';
import { compareParty, HOUSE } from '../domain/settlement';
import { buildStatement, HOUSE_NAME, Statement, StatementMatchInput } from '../domain/statement';
import { isOutstanding, outstanding, rangeTotals, sessionOutstanding } from '../domain/player-statement';
import { addPaymentToParties, minorFromDb } from '../ledger';
import { PaymentEntity } from '../payments';
import { SessionsRepository } from '../sessions';
import { assertPlayersInClub, scoreOf, standingForfeit, standingPenalties } from '../tables';
import type { SessionMatchRow } from './settlement.repository';
import { statementFlights } from '../tournaments';
import {
  BalanceDto,
  BalancesQuery,
  CreatePaymentDto,
  LedgerEntryDto,
  LedgerQuery,
  PaymentDto,
  PlayerPaymentDto,
  PlayerSessionLineDto,
  PlayerStatementDto,
  PlayerStatementQuery,
  PlayerTotalDto,
} from './settlement.dto';
import { SettlementRepository } from './settlement.repository';
import { playerNames } from '../players';

/** A player id as stored: UUIDs in lower case; the house as "house". */
const normaliseParty = (party: string) => (party.toLowerCase() === HOUSE ? HOUSE : party.toLowerCase());

function mapPayment(p: PaymentEntity, currency: string): PaymentDto {
  return {
    id: p.id,
    sessionId: p.sessionId,
    from: p.fromParty,
    to: p.toParty,
    amountMinor: minorFromDb(p.amountMinor),
    currency,
    note: p.note,
    recordedBy: p.createdBy,
    at: p.createdAt.toISOString(),
  };
}

/** The session's day in the club's time zone, as YYYY-MM-DD. */
function localDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** A range bound: a club-local day (compared with the session's day) or an instant. */
type Bound = { day: string } | { at: Date };

function bound(field: 'from' | 'to', value: string | undefined): Bound | null {
  if (value === undefined) return null;
  const at = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  // Date.parse accepts 2026-02-30 by rolling over; a real day round-trips.
  if (Number.isNaN(at.getTime()) || (value.length === 10 && at.toISOString().slice(0, 10) !== value)) {
    throw new ApiError(ErrorCode.VALIDATION_FAILED, `${field} is not a real date or time.`, {
      errors: [{ field, message: `${field} must be a date (YYYY-MM-DD) or an RFC 3339 date-time` }],
    });
  }
  return value.length === 10 ? { day: value } : { at };
}

/** Session money: the ledger listing, statements (R6.5), payments and balances (R6.6). */
@Injectable()
export class SettlementService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly repo: SettlementRepository,
    private readonly sessions: SessionsRepository,
    private readonly clubs: ClubsRepository,
    private readonly outbox: Outbox,
  ) {}

  async ledger(auth: KeyAuth, sessionId: string, q: LedgerQuery): Promise<Page<LedgerEntryDto>> {
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = decodeCursor(q.cursor, ['string']);
    return this.db.read(async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const party = q.party === undefined ? undefined : normaliseParty(q.party);
      const rows = await this.repo.ledger(tx, auth.clubId, s.id, { kind: q.kind, party }, (after?.[0] as string) ?? null, limit);
      return toPage(
        rows,
        limit,
        (r) => [r.id],
        (r) => {
          const owner = r.owner;
          const table = 'tableKind' in owner ? TABLE_KIND_NAMES[owner.tableKind].path : null;
          return {
            id: r.id,
            gameRef:
              'tableId' in owner && table
                ? { table, tableId: owner.tableId, gameNo: r.gameNo, href: r.gameNo === null ? `/v1/${table}/${owner.tableId}` : `/v1/${table}/${owner.tableId}/games/${r.gameNo}` }
                : null,
            tournamentId: 'tournamentId' in owner ? owner.tournamentId : null,
            from: r.from,
            to: r.to,
            amountMinor: r.amountMinor,
            kind: r.kind,
            currency: s.currency,
            at: r.at.toISOString(),
          };
        },
      );
    });
  }

  /**
   * R6.5: the statement, from one snapshot of the session's ledger and payments, and
   * the club's time zone its renderings print times in. On a standby when `source` accepts it.
   */
  statement(auth: KeyAuth, sessionId: string, source: ReadSource | null = null): Promise<{ statement: Statement; timeZone: string }> {
    return this.db.readFrom(source, async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const club = await this.clubs.find(tx, auth.clubId);
      if (!club) throw notFound('Club');
      const { nets, games, latest } = await this.repo.sessionTotals(tx, auth.clubId, s.id);
      const payments = await this.repo.payments(tx, auth.clubId, s.id);
      const parties = new Set<string>([...nets.keys(), ...payments.flatMap((p) => [p.fromParty, p.toParty])]);
      parties.delete(HOUSE);
      const players = (await this.repo.sessionPlayers(tx, auth.clubId, s.id, [...parties])).map((p) => ({ ...p, games: games.get(p.playerId) ?? 0 }));
      const matches = (await this.repo.finishedMatches(tx, auth.clubId, s.id)).flatMap(statementMatch);
      const tournaments = (await this.repo.tournaments(tx, auth.clubId, s.id)).flatMap(statementFlights);
      let asOf = latest ?? s.createdAt;
      for (const p of payments) if (p.createdAt > asOf) asOf = p.createdAt;
      const statement = buildStatement({
        session: {
          id: s.id,
          name: s.name,
          currency: s.currency,
          status: s.status,
          rakeBp: s.rakeBp,
          startsAt: isoOrNull(s.startsAt),
          closedAt: isoOrNull(s.closedAt),
          createdAt: s.createdAt.toISOString(),
        },
        club: { id: club.id, name: club.name, timezone: club.timezone },
        players,
        nets,
        payments: payments.map((p) => ({
          id: p.id,
          from: p.fromParty,
          to: p.toParty,
          amountMinor: minorFromDb(p.amountMinor),
          note: p.note,
          at: p.createdAt.toISOString(),
        })),
        matches,
        tournaments,
        asOf: asOf.toISOString(),
      });
      return { statement, timeZone: club.timezone };
    });
  }

  /**
   * R6.6: cash handed over, recorded against the session. Open or closed: players
   * settle after the session has closed. A mistake is corrected by a payment the
   * other way (payments, like the ledger, are never changed).
   */
  recordPayment(cmd: CommandContext, auth: KeyAuth, sessionId: string, dto: CreatePaymentDto): Promise<PaymentDto> {
    return this.commands.run(cmd, async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const from = normaliseParty(dto.from);
      const to = normaliseParty(dto.to);
      assertPaymentBetweenTwoParties(from, to);
      await assertPlayersInClub(
        tx,
        auth.clubId,
        [from, to].filter((p) => p !== HOUSE),
      );
      const p: PaymentEntity = {
        clubId: auth.clubId,
        id: uuid7(),
        sessionId: s.id,
        fromParty: from,
        toParty: to,
        amountMinor: String(dto.amountMinor),
        note: dto.note ?? null,
        createdBy: auth.keyId,
        createdAt: new Date(),
      };
      // Both written with the COMMIT, after every read above.
      this.repo.insertPayment(tx, p);
      // R6.2: the payment counts towards both parties' gross money (refused past 2^53 − 1).
      addPaymentToParties(tx, auth.clubId, s, { from, to, amountMinor: dto.amountMinor });
      const payment = mapPayment(p, s.currency);
      this.outbox.emit(tx, auth.clubId, { type: 'payment.recorded', sessionId: s.id, subject: { kind: 'payment', id: p.id }, data: payment });
      return payment;
    });
  }

  async payments(auth: KeyAuth, sessionId: string, limit: number, cursor?: string): Promise<Page<PaymentDto>> {
    const after = decodeCursor(cursor, ['string']);
    return this.db.read(async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const rows = await this.repo.payments(tx, auth.clubId, s.id, (after?.[0] as string) ?? null, limit + 1);
      return toPage(
        rows,
        limit,
        (p) => [p.id],
        (p) => mapPayment(p, s.currency),
      );
    });
  }

  /** R6.6: every party's outstanding balance per currency, across sessions; the house as "house". */
  balances(auth: KeyAuth, q: BalancesQuery): Promise<{ items: BalanceDto[] }> {
    return this.db.read(async (tx) => {
      const party = q.playerId === undefined ? undefined : normaliseParty(q.playerId);
      const acc = new Map<string, { party: string; currency: string; balance: bigint }>();
      for (const r of await this.repo.partyBalances(tx, auth.clubId, party)) {
        if (q.currency && r.currency !== q.currency) continue;
        acc.set(`${r.currency}/${r.party}`, { party: r.party, currency: r.currency, balance: outstanding(r) });
      }
      const names = await playerNames(
        tx,
        auth.clubId,
        [...new Set([...acc.values()].map((a) => a.party))].filter((p) => p !== HOUSE),
      );
      const items = [...acc.values()]
        .filter((a) => q.outstanding !== 'true' || isOutstanding(a.balance))
        .map((a) => ({
          playerId: a.party,
          name: a.party === HOUSE ? HOUSE_NAME : (names.get(a.party) ?? a.party),
          currency: a.currency,
          balanceMinor: minorFromDb(a.balance),
        }))
        .sort((a, b) => compareParty(a.currency, b.currency) || compareParty(a.name, b.name) || compareParty(a.playerId, b.playerId));
      return { items };
    });
  }

  /**
   * A player's money over a range of sessions (R6.6), a page of sessions at a time, oldest
   * first: each page's session lines and their payments; the totals are the range's (not
   * the page's) and the same on every page, the balance the whole history's.
   */
  playerStatement(auth: KeyAuth, playerId: string, q: PlayerStatementQuery): Promise<PlayerStatementDto> {
    const from = bound('from', q.from);
    const to = bound('to', q.to);
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = statementCursor(q.cursor);
    return this.db.read(async (tx) => {
      const names = await playerNames(tx, auth.clubId, [playerId]);
      if (!names.has(playerId)) throw notFound('Player');
      const club = await this.clubs.find(tx, auth.clubId);
      if (!club) throw notFound('Club');
      // The range as instants: a day from the first instant of that day in the club's time
      // zone; `to` inclusive, so up to the next day's start (or the next millisecond).
      const start = from === null ? null : 'day' in from ? dayStartInZone(from.day, club.timezone) : from.at;
      const end = to === null ? null : 'day' in to ? dayStartInZone(nextDay(to.day), club.timezone) : new Date(to.at.getTime() + 1);
      const rows = await this.repo.statementSessions(tx, auth.clubId, playerId, { from: start, toEnd: end }, after, limit + 1);
      const page = rows.slice(0, limit);
      const ids = page.map((s) => s.id);
      const money = new Map((await this.repo.partySessions(tx, auth.clubId, playerId, ids)).map((r) => [r.sessionId, r]));
      const sessions = page.map((s): PlayerSessionLineDto => {
        const r = money.get(s.id);
        const net = r?.netMinor ?? 0;
        const paid = r?.paidMinor ?? 0;
        const received = r?.receivedMinor ?? 0;
        return {
          sessionId: s.id,
          name: s.name,
          date: localDay(s.startsAt ?? s.createdAt, club.timezone),
          status: s.status,
          currency: s.currency,
          games: r?.games ?? 0,
          netMinor: net,
          paidMinor: paid,
          receivedMinor: received,
          outstandingMinor: minorFromDb(sessionOutstanding({ netMinor: net, paidMinor: paid, receivedMinor: received })),
        };
      });
      // The page's payments, session by session in the page's order, then in the order recorded.
      const lineOf = new Map(ids.map((id, i) => [id, i]));
      const currencyOf = new Map(page.map((s) => [s.id, s.currency]));
      const paymentRows = (await this.repo.partyPayments(tx, auth.clubId, playerId, ids)).sort((a, b) => lineOf.get(a.sessionId)! - lineOf.get(b.sessionId)! || compareParty(a.id, b.id));
      const others = await playerNames(
        tx,
        auth.clubId,
        [...new Set(paymentRows.flatMap((p) => [p.fromParty, p.toParty]))].filter((p) => p !== HOUSE),
      );
      const nameOf = (party: string) => (party === HOUSE ? HOUSE_NAME : (others.get(party) ?? party));
      const payments: PlayerPaymentDto[] = paymentRows.map((p) => ({
        id: p.id,
        sessionId: p.sessionId,
        currency: currencyOf.get(p.sessionId)!,
        from: p.fromParty,
        fromName: nameOf(p.fromParty),
        to: p.toParty,
        toName: nameOf(p.toParty),
        amountMinor: minorFromDb(p.amountMinor),
        note: p.note,
        at: p.createdAt.toISOString(),
      }));
      const totals = await this.rangeTotals(tx, auth.clubId, playerId, start, end);
      return {
        playerId,
        name: names.get(playerId)!,
        from: q.from ?? null,
        to: q.to ?? null,
        sessions,
        payments,
        totals,
        nextCursor: rows.length > limit ? encodeCursor([page[page.length - 1].datedKey, page[page.length - 1].id]) : null,
      };
    });
  }

  /**
   * R6.6: a statement's totals per currency over the range [start, end) of session dates,
   * whatever the page. The balance is the party's running money (party_volumes) over every
   * session. Without either end the range is the whole history: its sums are the running
   * money. With only an end, the sessions before it are summed. With a start, the sessions
   * from it on, split at the end: the opening is the balance less all of them (the
   * sessions before the range, never read). What is read is the range (and, with both
   * ends, what follows it), never the history before it.
   */
  private async rangeTotals(tx: Reads, clubId: string, playerId: string, start: Date | null, end: Date | null): Promise<PlayerTotalDto[]> {
    const all = await this.repo.partyMoney(tx, clubId, playerId);
    const dated =
      start === null && end === null
        ? []
        : start === null
          ? await this.repo.partyMoneyDated(tx, clubId, playerId, null, end, null)
          : await this.repo.partyMoneyDated(tx, clubId, playerId, start, null, end);
    return rangeTotals({ start: start !== null, end: end !== null, all, dated }).map((t) => ({
      currency: t.currency,
      openingMinor: minorFromDb(t.opening),
      netMinor: minorFromDb(t.net),
      paidMinor: minorFromDb(t.paid),
      receivedMinor: minorFromDb(t.received),
      closingMinor: minorFromDb(t.closing),
      balanceMinor: minorFromDb(t.balance),
    }));
  }
}

/** A statement page's key: its last session's date (RFC 3339 UTC to the microsecond, a real time) and id. */
const DATED_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z$/;

function statementCursor(cursor: string | undefined): [string, string] | null {
  const key = decodeCursor(cursor, ['string', 'string']) as [string, string] | null;
  if (key === null) return null;
  const at = DATED_KEY.exec(key[0])?.[1];
  const real = at !== undefined && !at.startsWith('0000') && !Number.isNaN(Date.parse(`${at}Z`)) && new Date(`${at}Z`).toISOString() === `${at}Z`;
  if (!real || !isUuid(key[1])) {
    throw new ApiError(ErrorCode.INVALID_CURSOR, 'The cursor is not one this API gave out; start again without it.', {
      errors: [{ field: 'cursor', message: 'cursor is not one this API gave out' }],
    });
  }
  return key;
}

/**
 * A finished match as the statement shows it: score, winner and how it ended (R3.2,
 * R3.9), ended at its last game, penalty or forfeit.
 */
function statementMatch(m: SessionMatchRow): StatementMatchInput[] {
  const score = scoreOf(m.setup, m.games, m.state);
  if (score.status !== 'finished' || score.winnerSide === null || score.endedBy === null) return [];
  const forfeit = standingForfeit(m.state);
  const times = [...m.games.flatMap((g) => (g.endedAt ? [g.endedAt.toISOString()] : [])), ...standingPenalties(m.state).map((p) => p.at), ...(forfeit ? [forfeit.at] : [])];
  const endedAt = times.reduce((a, b) => (b > a ? b : a), '');
  return [{ matchId: m.id, sides: m.setup.sides, score: [score.score[0], score.score[1]], winnerSide: score.winnerSide, endedBy: score.endedBy, stakeMinor: m.stakeMinor, endedAt }];
}
