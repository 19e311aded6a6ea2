import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read models that keep every everyday read independent of the club's history, kept up
 * to date in the transaction that changes what they sum (and rebuilt from the ledger and
 * the games by `npm run rebuild-read-models`):
 *
 * - `party_volumes` gains each party's ledger net, what it paid and received, and whether
 *   it has a session total in that currency: GET /v1/balances and a player's money
 *   statistics read one row per party and currency.
 * - `players.rated_matches`: the finished backgammon matches a player played (R7.1,
 *   R8.9), counted where his rating changes, for GET /v1/ratings; and the index that
 *   reads ratings best first.
 * - `player_stats`: a player's counters per variant (games, wins, losses, draws, points,
 *   gammons, backgammons, cube actions, matches): GET /v1/players/{id} reads a few rows.
 * - `sessions_dated_ix`: sessions by date, for a player's statement over a range.
 *
 * The new columns and table are filled from the history by the app as it starts, before
 * it serves (the rules that count a game are TypeScript): every club is queued in
 * `read_model_rebuilds`, and each club's rebuild deletes its row in its transaction.
 */
export class ReadModels1796605200000 implements MigrationInterface {
  name = 'ReadModels1796605200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE party_volumes
        ADD COLUMN net_minor      bigint  NOT NULL DEFAULT 0,
        ADD COLUMN paid_minor     bigint  NOT NULL DEFAULT 0,
        ADD COLUMN received_minor bigint  NOT NULL DEFAULT 0,
        ADD COLUMN has_totals     boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE players ADD COLUMN rated_matches integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX players_rating_ix ON players (club_id, rating DESC, id)`);
    await q.query(`CREATE INDEX sessions_dated_ix ON sessions (club_id, (coalesce(starts_at, created_at)))`);
    await q.query(`
      CREATE TABLE player_stats (
        club_id           uuid    NOT NULL,
        player_id         uuid    NOT NULL,
        variant           text    NOT NULL,
        games_played      integer NOT NULL DEFAULT 0,
        games_won         integer NOT NULL DEFAULT 0,
        games_lost        integer NOT NULL DEFAULT 0,
        draws             integer NOT NULL DEFAULT 0,
        points_won        bigint  NOT NULL DEFAULT 0,
        points_lost       bigint  NOT NULL DEFAULT 0,
        gammons_won       integer NOT NULL DEFAULT 0,
        gammons_lost      integer NOT NULL DEFAULT 0,
        backgammons_won   integer NOT NULL DEFAULT 0,
        backgammons_lost  integer NOT NULL DEFAULT 0,
        doubles           integer NOT NULL DEFAULT 0,
        takes             integer NOT NULL DEFAULT 0,
        passes            integer NOT NULL DEFAULT 0,
        beavers           integer NOT NULL DEFAULT 0,
        matches_played    integer NOT NULL DEFAULT 0,
        matches_won       integer NOT NULL DEFAULT 0,
        CONSTRAINT player_stats_pk PRIMARY KEY (club_id, player_id, variant),
        CONSTRAINT player_stats_player_fk FOREIGN KEY (club_id, player_id) REFERENCES players (club_id, id)
      )`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON player_stats TO bgclub_app`);
    await q.query(`
      CREATE TABLE read_model_rebuilds (
        club_id uuid NOT NULL,
        CONSTRAINT read_model_rebuilds_pk PRIMARY KEY (club_id),
        CONSTRAINT read_model_rebuilds_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id)
      )`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON read_model_rebuilds TO bgclub_app`);
    await q.query(`INSERT INTO read_model_rebuilds (club_id) SELECT club_id FROM clubs`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE read_model_rebuilds');
    await q.query('DROP TABLE player_stats');
    await q.query('DROP INDEX sessions_dated_ix');
    await q.query('DROP INDEX players_rating_ix');
    await q.query('ALTER TABLE players DROP COLUMN rated_matches');
    await q.query('ALTER TABLE party_volumes DROP COLUMN has_totals, DROP COLUMN received_minor, DROP COLUMN paid_minor, DROP COLUMN net_minor');
  }
}
