import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Team events (R3.7): two teams play one match per board (board i: the i-th player of
 * each team); the team winning a majority of the boards wins. The boards are ordinary
 * matches in game_tables; the event's score is derived from them, never stored.
 * Every key includes club_id.
 */
export class TeamEvents1764979200000 implements MigrationInterface {
  name = 'TeamEvents1764979200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE team_events (
        club_id      uuid        NOT NULL,
        id           uuid        NOT NULL,
        session_id   uuid        NULL,
        name         text        NULL,
        target       integer     NOT NULL,
        stake_minor  bigint      NULL,
        teams        jsonb       NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        version      integer     NOT NULL DEFAULT 1,
        CONSTRAINT team_events_pk PRIMARY KEY (club_id, id),
        CONSTRAINT team_events_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id),
        CONSTRAINT team_events_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id),
        CONSTRAINT team_events_target_ck CHECK (target BETWEEN 1 AND 63 AND target % 2 = 1),
        CONSTRAINT team_events_stake_ck CHECK (stake_minor IS NULL OR stake_minor >= 0),
        CONSTRAINT team_events_teams_ck CHECK (jsonb_typeof(teams) = 'array' AND jsonb_array_length(teams) = 2)
      )`);
    await q.query(`CREATE INDEX team_events_session_ix ON team_events (club_id, session_id, id)`);
    await q.query(`
      CREATE TABLE team_event_boards (
        club_id   uuid    NOT NULL,
        event_id  uuid    NOT NULL,
        board_no  integer NOT NULL,
        match_id  uuid    NOT NULL,
        CONSTRAINT team_event_boards_pk PRIMARY KEY (club_id, event_id, board_no),
        CONSTRAINT team_event_boards_event_fk FOREIGN KEY (club_id, event_id) REFERENCES team_events (club_id, id),
        CONSTRAINT team_event_boards_match_fk FOREIGN KEY (club_id, match_id) REFERENCES game_tables (club_id, id),
        CONSTRAINT team_event_boards_match_uq UNIQUE (club_id, match_id),
        CONSTRAINT team_event_boards_board_no_ck CHECK (board_no >= 1)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE team_event_boards');
    await q.query('DROP TABLE team_events');
  }
}
