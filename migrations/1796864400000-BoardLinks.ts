import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Board links: read-only links a club puts on its screen. A link is an API key of its own
 * role, `board` (below a viewer: it reads only what the board shows), so it is
 * authenticated, cached, rate-limited and revoked exactly as a key is; `board_links` holds
 * what the board shows (a session, a tournament) beside the key.
 */
export class BoardLinks1796864400000 implements MigrationInterface {
  name = 'BoardLinks1796864400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_ck`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_ck CHECK (role IN ('owner', 'scorer', 'viewer', 'board'))`);
    await q.query(`
      CREATE TABLE board_links (
        club_id        uuid        NOT NULL,
        id             uuid        NOT NULL,
        session_id     uuid        NULL,
        tournament_id  uuid        NULL,
        created_at     timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT board_links_pk PRIMARY KEY (club_id, id),
        CONSTRAINT board_links_key_fk FOREIGN KEY (club_id, id) REFERENCES api_keys (club_id, id),
        CONSTRAINT board_links_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id),
        CONSTRAINT board_links_tournament_fk FOREIGN KEY (club_id, tournament_id) REFERENCES tournaments (club_id, id)
      )`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON board_links TO bgclub_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE board_links`);
    await q.query(`DELETE FROM rate_limit_counters WHERE (club_id, api_key_id) IN (SELECT club_id, id FROM api_keys WHERE role = 'board')`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_ck`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_ck CHECK (role IN ('owner', 'scorer', 'viewer'))`);
  }
}
