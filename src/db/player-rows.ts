import type { Tx } from './tx';

/** What a command adds to one player's row: rating deltas (R7.1) and the rated-match count; all zero for a player whose page changed otherwise. */
export interface PlayerRowChange {
  rating: number;
  experience: number;
  ratedMatches: number;
}

const NONE: PlayerRowChange = { rating: 0, experience: 0, ratedMatches: 0 };

/**
 * The one write of a command to its players' rows, sent with its COMMIT: each player's
 * rating change (R7.1), if any, and `version + 1` for every player whose page
 * (`GET /v1/players/{id}`: his fields and statistics) the command changes, so that the
 * page's version, and with it its ETag, changes whenever the page does.
 *
 * Every change of the command goes into one UPDATE per club (merged in place while it is
 * queued: Tx.deferMerged), as a statement may change a row only once: two UPDATEs of one
 * row in the command's batch would keep only one of them. Rows are updated in id order,
 * like every other command that locks several players.
 */
export function changePlayerRows(tx: Tx, clubId: string, changes: ReadonlyMap<string, PlayerRowChange>): void {
  if (changes.size === 0) return;
  lockPlayersFirst(tx, clubId, changes.keys());
  tx.deferMerged<Map<string, PlayerRowChange>>(
    `players:${clubId}`,
    (prior) => {
      const merged = prior ?? new Map<string, PlayerRowChange>();
      for (const [id, c] of changes) {
        const p = merged.get(id) ?? NONE;
        merged.set(id, { rating: p.rating + c.rating, experience: p.experience + c.experience, ratedMatches: p.ratedMatches + c.ratedMatches });
      }
      return merged;
    },
    (merged) => {
      const ids = [...merged.keys()].sort();
      const rows = ids.map((id) => merged.get(id) as PlayerRowChange);
      return { what: 'players', text: PLAYER_ROWS_UPDATE, values: [clubId, ids, rows.map((r) => r.rating), rows.map((r) => r.experience), rows.map((r) => r.ratedMatches)] };
    },
  );
}

/**
 * Lock order: a command that writes a player's row writes his other rows too (statistics,
 * money, session totals), in a batch whose statements PostgreSQL runs in an order of its
 * own. Its players' rows are therefore locked first, ahead of the batch, in id order
 * (Tx.lockFirst rank 0): two commands sharing a player then queue on his row before
 * either touches the rows behind it, and never hold those rows in opposite orders.
 * FOR NO KEY UPDATE is the lock the UPDATE takes anyway.
 */
export function lockPlayersFirst(tx: Tx, clubId: string, ids: Iterable<string>): void {
  tx.lockFirst<Set<string>>(
    0,
    `players:${clubId}`,
    (prior) => {
      const all = prior ?? new Set<string>();
      for (const id of ids) all.add(id);
      return all;
    },
    (all) => ({ text: LOCK_PLAYERS, values: [clubId, [...all].sort()] }),
  );
}

const LOCK_PLAYERS = `SELECT 1 FROM players WHERE club_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR NO KEY UPDATE`;

/** Players whose page changed without a change of their row's values (their statistics, their money): their version goes up. */
export function touchPlayers(tx: Tx, clubId: string, ids: Iterable<string>): void {
  const changes = new Map<string, PlayerRowChange>();
  for (const id of ids) changes.set(id, NONE);
  changePlayerRows(tx, clubId, changes);
}

const PLAYER_ROWS_UPDATE = `UPDATE players p SET rating = p.rating + c.delta, experience = p.experience + c.experience, rated_matches = p.rated_matches + c.rated,
       version = p.version + 1, updated_at = now()
  FROM unnest($2::uuid[], $3::float8[], $4::int[], $5::int[]) AS c (id, delta, experience, rated)
 WHERE p.club_id = $1 AND p.id = c.id`;
