import type { Flight, FlightRules } from '../domain/tournament-flight';
import type { TournamentFormat } from '../domain/tournament';
import type { Variant } from '../domain/variants';
import type { MatchTableSetup } from '../tables';

/** What the director set at the tournament's creation (R9.1, R9.9, R9.11), kept in `tournaments.config`. */
export interface TournamentConfig {
  targets: number[];
  rounds: number | null;
  variant: Variant;
  /** The match rules as given, which every match of it is created with (R3). */
  rules: Record<string, unknown>;
  /** The same rules as a match answers them (every setting, defaults filled in). */
  matchRules: MatchTableSetup['rules'];
  entryFeeMinor: number | null;
  housePercent: number;
  /** As given: a list, or the main and consolation lists (R9.11). */
  payouts: number[] | { main: number[]; consolation: number[] };
  consolation: boolean;
  flights: string[];
  startsAt: string | null;
  roundMinutes: number | null;
}

/** A round's start, as scheduled when its first match was created (R9.5, R9.6), by `<bracket>:<round>`. */
export type Schedule = Record<string, string>;

/** The flights as they stand, kept in `tournaments.state`. */
export interface TournamentState {
  flights: Array<Flight & { scheduled: Schedule }>;
  /** The next entry's number (R9.3: equal ratings go by entry order). */
  nextEntryNo: number;
}

export interface TournamentRow {
  clubId: string;
  id: string;
  sessionId: string | null;
  name: string;
  format: TournamentFormat;
  status: 'open' | 'running' | 'finished';
  config: TournamentConfig;
  state: TournamentState;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** The session's currency (read with the row). */
  currency: string | null;
}

/** The payouts as the rules read them: main and consolation lists. */
export function splitPayouts(p: TournamentConfig['payouts']): { main: number[]; consolation: number[] } {
  return Array.isArray(p) ? { main: [...p], consolation: [] } : { main: [...p.main], consolation: [...p.consolation] };
}

export function flightRules(t: Pick<TournamentRow, 'format' | 'config'>): FlightRules {
  const c = t.config;
  return {
    format: t.format,
    rounds: c.rounds,
    targets: c.targets,
    consolation: c.consolation,
    entryFeeMinor: c.entryFeeMinor,
    housePercent: c.housePercent,
    payouts: splitPayouts(c.payouts),
  };
}
