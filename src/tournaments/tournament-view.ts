import { loserOf, Round, sidesOf } from '../domain/tournament';
import { Bracket, bracketStandings, feePayers, Flight, flightStatus, FlightRules, poolOf } from '../domain/tournament-flight';
import type { StatementTournamentInput } from '../domain/statement';
import type { MatchEndDto } from '../tables';
import { flightRules, Schedule, TournamentRow } from './tournament-state';
import type { FlightDto, TournamentDto, TournamentEntryDto, TournamentRoundDto } from './tournaments.dto';

function endDto(end: NonNullable<Round['pairings'][number]['result']>['endedBy']): MatchEndDto {
  return end.kind === 'points' ? { kind: 'points' } : { kind: 'forfeit', side: end.side, reason: end.reason };
}

function roundsDto(rounds: readonly Round[], scheduled: Schedule, bracket: 'main' | 'consolation'): TournamentRoundDto[] {
  return rounds.map((r) => ({
    no: r.no,
    target: r.target,
    scheduledAt: scheduled[`${bracket}:${r.no}`] ?? null,
    pairings: r.pairings.map((p) => {
      const sides = sidesOf(p);
      return {
        no: p.no,
        sides: sides ? [[sides[0]], [sides[1]]] : null,
        slots: [p.slots[0], p.bye !== null ? null : p.slots[1]],
        bye: p.bye,
        matchId: p.matchId,
        winnerSide: p.result?.winnerSide ?? null,
        endedBy: p.result ? endDto(p.result.endedBy) : null,
        score: p.result ? [p.result.score[0], p.result.score[1]] : null,
      };
    }),
  }));
}

/** Whether the player has lost a match of this bracket. */
function lostIn(br: Bracket | null, playerId: string): boolean {
  return !!br && br.rounds.some((r) => r.pairings.some((p) => loserOf(p) === playerId));
}

function entryStatus(f: Flight, rules: FlightRules, e: Flight['entries'][number]): TournamentEntryDto['status'] {
  if (e.status !== 'in') return e.status;
  if (rules.format !== 'knockout' || !lostIn(f.main, e.playerId)) return 'in';
  // R9.11: a first-match loser plays on in the consolation (drawn, or still to be drawn).
  if (rules.consolation && !lostIn(f.consolation, e.playerId) && (f.consolation === null || f.consolation.seeded.includes(e.playerId))) {
    const firstLoss = f.main!.rounds.find((r) => r.pairings.some((p) => sidesOf(p)?.includes(e.playerId)));
    if (f.consolation !== null || (firstLoss && firstLoss.pairings.some((p) => loserOf(p) === e.playerId))) return 'in';
  }
  return 'out';
}

function flightDto(f: Flight & { scheduled: Schedule }, rules: FlightRules): FlightDto {
  const pool = poolOf(f, rules);
  return {
    name: f.name,
    status: flightStatus(f, rules),
    entries: f.entries.map((e) => ({ playerId: e.playerId, seed: e.seed, status: entryStatus(f, rules, e) })),
    rounds: f.main ? roundsDto(f.main.rounds, f.scheduled, 'main') : [],
    consolation: f.consolation
      ? { rounds: roundsDto(f.consolation.rounds, f.scheduled, 'consolation'), standings: bracketStandings(f.consolation, rules.format).map((s) => ({ ...s })) }
      : null,
    standings: f.main ? bracketStandings(f.main, rules.format).map((s) => ({ ...s })) : [],
    prizePoolMinor: pool,
    houseMinor: Math.floor((pool * rules.housePercent) / 100),
    prizes: (f.prizes ?? []).map((p) => ({ playerId: p.playerId, place: p.place, bracket: p.bracket, amountMinor: p.amountMinor })),
  };
}

/** The tournament as the API answers it (R9). */
export function tournamentView(t: TournamentRow): TournamentDto {
  const rules = flightRules(t);
  const c = t.config;
  return {
    id: t.id,
    name: t.name,
    format: t.format,
    status: t.status,
    rounds: c.rounds,
    targets: [...c.targets],
    variant: c.variant,
    rules: { ...c.matchRules },
    sessionId: t.sessionId,
    currency: t.currency,
    entryFeeMinor: c.entryFeeMinor,
    housePercent: c.housePercent,
    payouts: Array.isArray(c.payouts) ? [...c.payouts] : { main: [...c.payouts.main], consolation: [...c.payouts.consolation] },
    consolation: c.consolation,
    startsAt: c.startsAt,
    roundMinutes: c.roundMinutes,
    flights: t.state.flights.map((f) => flightDto(f, rules)),
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The session statement's lines of a tournament (R9.9): one per flight, with its pool, commission and prizes. */
export function statementFlights(t: TournamentRow): StatementTournamentInput[] {
  const rules = flightRules(t);
  return t.state.flights.map((f) => {
    const pool = poolOf(f, rules);
    return {
      tournamentId: t.id,
      name: t.name,
      flight: f.name,
      status: flightStatus(f, rules),
      entries: f.main ? feePayers(f).length : f.entries.length,
      entryFeeMinor: t.config.entryFeeMinor,
      poolMinor: pool,
      houseMinor: Math.floor((pool * rules.housePercent) / 100),
      prizes: (f.prizes ?? []).map((p) => ({ playerId: p.playerId, place: p.place, bracket: p.bracket, amountMinor: p.amountMinor })),
    };
  });
}
