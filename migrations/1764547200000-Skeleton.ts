import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clubs, API keys, players, sessions and idempotency records.
 * Every tenant table carries club_id, and its primary key, unique constraints
 * and foreign keys include it (ready to be distributed by club_id).
 */
export class Skeleton1764547200000 implements MigrationInterface {
  name = 'Skeleton1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clubs (
        club_id     uuid        NOT NULL,
        name        text        NOT NULL,
        currency    char(3)     NOT NULL,
        timezone    text        NOT NULL,
        version     integer     NOT NULL DEFAULT 1,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT clubs_pk PRIMARY KEY (club_id)
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        club_id      uuid        NOT NULL,
        id           uuid        NOT NULL,
        name         text        NOT NULL,
        role         text        NOT NULL,
        secret_hash  bytea       NOT NULL,
        hint         text        NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        revoked_at   timestamptz NULL,
        CONSTRAINT api_keys_pk PRIMARY KEY (club_id, id),
        CONSTRAINT api_keys_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id),
        CONSTRAINT api_keys_role_ck CHECK (role IN ('owner', 'scorer', 'viewer'))
      )`);
    await q.query(`
      CREATE TABLE players (
        club_id     uuid             NOT NULL,
        id          uuid             NOT NULL,
        name        text             NOT NULL,
        nickname    text             NULL,
        rating      double precision NOT NULL DEFAULT 1500,
        experience  integer          NOT NULL DEFAULT 0,
        version     integer          NOT NULL DEFAULT 1,
        created_at  timestamptz      NOT NULL DEFAULT now(),
        updated_at  timestamptz      NOT NULL DEFAULT now(),
        CONSTRAINT players_pk PRIMARY KEY (club_id, id),
        CONSTRAINT players_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id),
        CONSTRAINT players_experience_ck CHECK (experience >= 0)
      )`);
    await q.query(`
      CREATE TABLE sessions (
        club_id     uuid        NOT NULL,
        id          uuid        NOT NULL,
        name        text        NOT NULL,
        currency    char(3)     NOT NULL,
        status      text        NOT NULL DEFAULT 'open',
        rake_bp     integer     NOT NULL DEFAULT 0,
        starts_at   timestamptz NULL,
        closed_at   timestamptz NULL,
        version     integer     NOT NULL DEFAULT 1,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sessions_pk PRIMARY KEY (club_id, id),
        CONSTRAINT sessions_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id),
        CONSTRAINT sessions_status_ck CHECK (status IN ('open', 'closed')),
        CONSTRAINT sessions_rake_ck CHECK (rake_bp BETWEEN 0 AND 10000)
      )`);
    await q.query(`CREATE INDEX sessions_status_ix ON sessions (club_id, status, id)`);
    await q.query(`
      CREATE TABLE idempotency_keys (
        club_id       uuid        NOT NULL,
        api_key_id    uuid        NOT NULL,
        key           text        NOT NULL,
        request_hash  text        NOT NULL,
        status_code   integer     NOT NULL,
        body          text        NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT idempotency_keys_pk PRIMARY KEY (club_id, api_key_id, key),
        CONSTRAINT idempotency_keys_key_fk FOREIGN KEY (club_id, api_key_id) REFERENCES api_keys (club_id, id)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_ix ON idempotency_keys (created_at)`);
    // The operator's requests (club creation) belong to no club yet.
    await q.query(`
      CREATE TABLE operator_idempotency_keys (
        key           text        NOT NULL,
        request_hash  text        NOT NULL,
        status_code   integer     NOT NULL,
        body          text        NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT operator_idempotency_keys_pk PRIMARY KEY (key)
      )`);
    await q.query(`CREATE INDEX operator_idempotency_keys_created_ix ON operator_idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE operator_idempotency_keys');
    await q.query('DROP TABLE idempotency_keys');
    await q.query('DROP TABLE sessions');
    await q.query('DROP TABLE players');
    await q.query('DROP TABLE api_keys');
    await q.query('DROP TABLE clubs');
  }
}
