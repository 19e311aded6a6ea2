import { Injectable } from '@nestjs/common';
import type { Row } from '../db/decode';
import { touchPlayers } from '../db/player-rows';
import type { Tx } from '../db/tx';
import { gameStatsRows, matchStatsRows, STATS_COUNTERS, sumStatsRows, type StatsRow } from '../domain/player-stats';
import { GameStats, type StatsChange } from '../tables';
import { lowerSides, playerStatsUpsert, statsGameRow } from './stats-rows';

/**
 * A game as the statistics read it from the database (the columns of
 * PlayerStatsRepository.finishedGames), built from the rows the command holds, so the
 * counters a command adds are exactly those a rebuild from the stored game finds.
 */
function statsRowOf({ t, game }: StatsChange['games'][number]): Row {
  const setup = game.setup;
  const chouette = 'seatsAtStart' in setup ? setup : null;
  const row = {
    table_id: game.tableId,
    game_no: game.gameNo,
    kind: t.kind,
    // A match's and a money game's setup always name their sides (their decoders check them).
    sides: t.kind === 'chouette' ? null : t.setup.sides,
    seats: chouette?.seatsAtStart ?? null,
    winner_side: game.winnerSide,
    result: game.result,
    points: game.points,
    variant: ('variant' in setup ? setup.variant : undefined) ?? 'backgammon',
    actions: game.actions,
    chouette_setup: t.kind === 'chouette' ? (chouette?.setup ?? null) : null,
    automatic_doubles: game.automaticDoubles,
  };
  // The decoder reads it as it reads the columns from the database (it copies what it keeps, changes nothing).
  return row;
}

/** player_stats kept by the commands (see GameStats). */
@Injectable()
export class PlayerStatsWriter extends GameStats {
  apply(tx: Tx, clubId: string, change: StatsChange, sign: 1 | -1): void {
    const rows: StatsRow[] = [];
    for (const g of change.games) rows.push(...gameStatsRows(statsGameRow(statsRowOf(g))));
    for (const m of change.matches) {
      const setup = m.t.setup;
      rows.push(...matchStatsRows({ sides: lowerSides(setup.sides), winnerSide: m.winnerSide }, setup.variant ?? 'backgammon'));
    }
    // One game alone (every game recorded) has one row per player already, in order: nothing to add up.
    const single = change.games.length === 1 && change.matches.length === 0 && sign === 1;
    const sums = (single ? rows : sumStatsRows(rows, sign)).filter((r) => STATS_COUNTERS.some((k) => r[k] !== 0));
    if (sums.length === 0) return;
    tx.defer({ what: 'player statistics', ...playerStatsUpsert(clubId, sums) });
    // Their pages show these counters: their versions go up with them.
    touchPlayers(tx, clubId, new Set(sums.map((r) => r.playerId)));
  }
}
