import { Injectable } from '@nestjs/common';
import { cols } from '../db/decode';
import type { Reads } from '../db/tx';
import type { MoneyNet, StatsRow } from '../domain/player-stats';
import { minorFromDb } from '../ledger';
import { decodeStatsRow } from './stats-rows';

/**
 * The reads behind a player's statistics: his rows of the read models (player_stats,
 * party_volumes), a few whatever his history. Every query is scoped by club_id.
 */
@Injectable()
export class PlayerStatsRepository {
  /** The player's statistics counters, a row per variant (the read model). */
  counters(tx: Reads, clubId: string, playerId: string): Promise<StatsRow[]> {
    return tx.rows(`SELECT * FROM player_stats WHERE club_id = $1 AND player_id = $2`, [clubId, playerId], decodeStatsRow);
  }

  /** The player's money per currency in which he has a session total: the sum of those sessions' nets (party_volumes). */
  money(tx: Reads, clubId: string, playerId: string): Promise<MoneyNet[]> {
    return tx.rows(`SELECT currency, net_minor::text AS net FROM party_volumes WHERE club_id = $1 AND party = $2 AND has_totals`, [clubId, playerId], (r) => {
      const c = cols(r);
      return { currency: c.currency('currency'), netMinor: minorFromDb(c.text('net')) };
    });
  }
}
