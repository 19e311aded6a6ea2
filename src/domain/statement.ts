/**
 * R6.5 settlement statement of one session: every player's net and games, the
 * house's take, the payments recorded against the session, what is still
 * outstanding, and the transfers that settle it exactly.
 *
 * Pure: the caller brings the session's nets (from the ledger), games counts and
 * payments; the statement depends on nothing else, so the same ledger always
 * gives a byte-identical statement (every list has a total order).
 */
import type { MatchEnd } from './match';
import { sumMinor, fromBigMinor } from './money';
import { compareParty, HOUSE, netsFromEntries, outstandingBalances, percentFromBasisPoints, settleTransfers, Transfer } from './settlement';

export interface StatementInput {
  session: {
    id: string;
    name: string;
    currency: string;
    status: 'open' | 'closed';
    /** Rake in basis points (R6.4), shown as a percentage. */
    rakeBp: number;
    startsAt: string | null;
    closedAt: string | null;
    createdAt: string;
  };
  club: { id: string; name: string; timezone: string };
  /** Every player of the session (seated at one of its tables, or named in its ledger or payments). */
  players: Array<{ playerId: string; name: string; games: number }>;
  /** Each party's net from the session's ledger (received − paid), the house included. */
  nets: ReadonlyMap<string, number>;
  payments: StatementPayment[];
  /** The session's finished matches (R3.2, R3.9); none when left out. */
  matches?: StatementMatchInput[];
  /** The flights of the session's tournaments with their money (R9.9); none when left out. */
  tournaments?: StatementTournamentInput[];
  /** The time of the latest ledger entry or payment; the session's creation when there is none. */
  asOf: string;
}

/** A finished match of the session, as the statement shows it. */
export interface StatementMatchInput {
  matchId: string;
  /** Player ids, side 0 then side 1 (a side may be a pair, R3.7). */
  sides: readonly [readonly string[], readonly string[]];
  score: readonly [number, number];
  winnerSide: 0 | 1;
  /** R3.2, R3.9: by points, or a forfeit with the side and the reason. */
  endedBy: MatchEnd;
  /** R3.8: the stake, or null. */
  stakeMinor: number | null;
  endedAt: string;
}

/** A tournament's flight and its money in the session's ledger (R9.9). */
export interface StatementTournamentInput {
  tournamentId: string;
  name: string;
  flight: string;
  status: 'open' | 'running' | 'finished';
  entries: number;
  entryFeeMinor: number | null;
  /** Entries × fee, paid to the house at the draw. */
  poolMinor: number;
  /** The house's commission out of the pool. */
  houseMinor: number;
  /** As posted when the flight finished (none before). */
  prizes: Array<{ playerId: string; place: number; bracket: 'main' | 'consolation'; amountMinor: number }>;
}

/** A tournament's flight in the statement, each prize with its winner's name. */
export interface StatementTournament extends Omit<StatementTournamentInput, 'prizes'> {
  prizes: Array<StatementTournamentInput['prizes'][number] & { name: string }>;
}

/** A finished match in the statement: the input with each side's names ("Anna & Carl"). */
export interface StatementMatch extends StatementMatchInput {
  sideNames: [string, string];
}

export interface StatementPayment {
  id: string;
  from: string;
  to: string;
  amountMinor: number;
  note: string | null;
  at: string;
}

export interface StatementPlayer {
  playerId: string;
  name: string;
  /** R6.5: what the games of the session won (+) or lost (−), after rake. */
  netMinor: number;
  /** Finished games the player took part in (voided and abandoned games do not count). */
  games: number;
  /** Cash the player handed over in payments recorded against the session. */
  paidMinor: number;
  /** Cash the player received in those payments. */
  receivedMinor: number;
  /** R6.6: net + paid − received; positive means he is still owed money. */
  outstandingMinor: number;
}

export interface StatementTransfer extends Transfer {
  fromName: string;
  toName: string;
}

export interface Statement {
  sessionId: string;
  sessionName: string;
  clubId: string;
  clubName: string;
  currency: string;
  status: 'open' | 'closed';
  rakePercent: number;
  startsAt: string | null;
  closedAt: string | null;
  asOf: string;
  players: StatementPlayer[];
  /** R6.4: the house's take (rake) over the session. */
  houseMinor: number;
  /** What the house is still owed (+) or owes (−) after the payments it took part in. */
  houseOutstandingMinor: number;
  payments: Array<StatementPayment & { fromName: string; toName: string }>;
  /** The session's finished matches and how each ended (R3.2, R3.9), by the time they ended, then id. */
  matches: StatementMatch[];
  /** The session's tournaments, flight by flight: entries, pool, the house's commission and the prizes (R9.9), by name, then id. */
  tournaments: StatementTournament[];
  /** R6.5: who pays whom to settle every outstanding balance; at most (non-zero balances − 1). */
  transfers: StatementTransfer[];
  /** Players' nets plus the house's: always 0 (R6.3, R6.4). */
  totalMinor: number;
}

export const HOUSE_NAME = 'House';

/** Statement order for players: by name, then by id (plain code-unit order, locale-free). */
function byNameThenId(a: { name: string; playerId: string }, b: { name: string; playerId: string }): number {
  return compareParty(a.name, b.name) || compareParty(a.playerId, b.playerId);
}

export function buildStatement(input: StatementInput): Statement {
  const names = new Map<string, string>([[HOUSE, HOUSE_NAME]]);
  const games = new Map<string, number>();
  for (const p of input.players) {
    names.set(p.playerId, p.name);
    games.set(p.playerId, p.games);
  }
  const payments = [...input.payments].sort((a, b) => compareParty(a.at, b.at) || compareParty(a.id, b.id));
  const moved = netsFromEntries(payments);
  const paid = new Map<string, bigint>();
  const received = new Map<string, bigint>();
  for (const p of payments) {
    paid.set(p.from, (paid.get(p.from) ?? 0n) + BigInt(p.amountMinor));
    received.set(p.to, (received.get(p.to) ?? 0n) + BigInt(p.amountMinor));
  }
  const balances = outstandingBalances(input.nets, payments);
  const outstanding = new Map(balances.map((b) => [b.party, b.balanceMinor]));

  const parties = new Set<string>([...input.players.map((p) => p.playerId), ...input.nets.keys(), ...moved.keys()]);
  parties.delete(HOUSE);
  const nameOf = (party: string) => names.get(party) ?? party;
  const players: StatementPlayer[] = [...parties]
    .map((playerId) => ({
      playerId,
      name: nameOf(playerId),
      netMinor: input.nets.get(playerId) ?? 0,
      games: games.get(playerId) ?? 0,
      paidMinor: fromBigMinor(paid.get(playerId) ?? 0n, 'paidMinor'),
      receivedMinor: fromBigMinor(received.get(playerId) ?? 0n, 'receivedMinor'),
      outstandingMinor: outstanding.get(playerId) ?? 0,
    }))
    .sort(byNameThenId);

  const houseMinor = input.nets.get(HOUSE) ?? 0;
  const transfers = settleTransfers(balances).map((t) => ({
    ...t,
    fromName: nameOf(t.from),
    toName: nameOf(t.to),
  }));
  const total = sumMinor([...players.map((p) => p.netMinor), houseMinor], 'netMinor');
  return {
    sessionId: input.session.id,
    sessionName: input.session.name,
    clubId: input.club.id,
    clubName: input.club.name,
    currency: input.session.currency,
    status: input.session.status,
    rakePercent: percentFromBasisPoints(input.session.rakeBp),
    startsAt: input.session.startsAt,
    closedAt: input.session.closedAt,
    asOf: input.asOf,
    players,
    houseMinor,
    houseOutstandingMinor: outstanding.get(HOUSE) ?? 0,
    payments: payments.map((p) => ({ ...p, fromName: nameOf(p.from), toName: nameOf(p.to) })),
    matches: [...(input.matches ?? [])]
      .sort((a, b) => compareParty(a.endedAt, b.endedAt) || compareParty(a.matchId, b.matchId))
      .map((m) => ({ ...m, sideNames: [m.sides[0].map(nameOf).join(' & '), m.sides[1].map(nameOf).join(' & ')] })),
    tournaments: [...(input.tournaments ?? [])]
      .map((t, i) => ({ t, i }))
      .sort((a, b) => compareParty(a.t.name, b.t.name) || compareParty(a.t.tournamentId, b.t.tournamentId) || a.i - b.i)
      .map(({ t }) => ({ ...t, prizes: t.prizes.map((p) => ({ ...p, name: nameOf(p.playerId) })) })),
    transfers,
    totalMinor: fromBigMinor(total, 'totalMinor'),
  };
}
