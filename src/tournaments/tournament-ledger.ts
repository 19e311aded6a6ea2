import { Injectable } from '@nestjs/common';
import type { Tx } from '../db/tx';
import { HOUSE } from '../domain/settlement';
import type { Prize } from '../domain/prizes';
import { feePayers } from '../domain/tournament-flight';
import { LedgerRepository, NewEntry } from '../ledger';
import type { TournamentRow } from './tournament-state';

/**
 * R9.9: a tournament's money in its session's ledger. Every entry pays its fee to the
 * house at the draw (the house holds the pools); each prize is paid by the house to its
 * winner when the flight finishes; what the house keeps is its commission. A correction
 * after the prizes reverses them (R9.10). Every posting sums to zero.
 */
@Injectable()
export class TournamentLedger {
  constructor(private readonly ledger: LedgerRepository) {}

  /** The fees of every flight's drawn entries (those who left later included: no refund; one who left before the draw pays none, R9.9). */
  entryFees(t: TournamentRow): NewEntry[] {
    const fee = t.config.entryFeeMinor;
    if (!fee) return [];
    return t.state.flights.flatMap((f) => feePayers(f).map((playerId) => ({ from: playerId, to: HOUSE, amountMinor: fee, kind: 'entry-fee' as const })));
  }

  prizes(_t: TournamentRow, prizes: readonly Prize[]): NewEntry[] {
    return prizes.filter((p) => p.amountMinor > 0).map((p) => ({ from: HOUSE, to: p.playerId, amountMinor: p.amountMinor, kind: 'prize' as const }));
  }

  /** R9.10: the prizes posted before a correction, taken back by reversing entries. */
  reversePrizes(_t: TournamentRow, prizes: readonly Prize[]): NewEntry[] {
    return prizes.filter((p) => p.amountMinor > 0).map((p) => ({ from: p.playerId, to: HOUSE, amountMinor: p.amountMinor, kind: 'void' as const }));
  }

  post(tx: Tx, t: TournamentRow, session: { id: string; currency: string }, entries: NewEntry[], at: Date): void {
    if (entries.length === 0) return;
    this.ledger.postForTournament(tx, t.clubId, session, t.id, entries, at);
  }
}
