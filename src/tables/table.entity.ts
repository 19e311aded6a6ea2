import { Column, Entity, PrimaryColumn } from 'typeorm';
import { uuid7 } from '../common/uuid';
import type { StoredAction, TableKind, TableRow, TableSetups, TableStates } from './stored-state';

export type { StoredAction, TableKind } from './stored-state';

/**
 * A match, money game or chouette: its fixed setup and its mutable state. The columns as
 * TypeORM maps them; the service works on rows typed by kind (StoredTable, stored-state.ts).
 */
@Entity({ name: 'game_tables' })
export class TableEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  kind: TableKind;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'text', default: 'in-progress' })
  status: 'in-progress' | 'finished';

  @Column({ type: 'jsonb' })
  setup: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  state: Record<string, unknown>;

  @Column({ name: 'stake_minor', type: 'bigint', nullable: true })
  stakeMinor: string | null;

  @Column({ name: 'next_game_no', type: 'integer', default: 1 })
  nextGameNo: number;

  @Column({ name: 'current_game_no', type: 'integer', nullable: true })
  currentGameNo: number | null;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

@Entity({ name: 'table_players' })
export class TablePlayerEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'table_id', type: 'uuid' })
  tableId: string;

  @PrimaryColumn({ name: 'player_id', type: 'uuid' })
  playerId: string;

  /** The table's kind (never changes). */
  @Column({ type: 'text' })
  kind: TableKind;

  /** The table's status, kept current with it (TablesRepository.save). */
  @Column({ type: 'text' })
  status: 'in-progress' | 'finished';
}

/** One game of a table: its setup snapshot and its action log (the service works on StoredGame, stored-state.ts). */
@Entity({ name: 'games' })
export class GameEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'table_id', type: 'uuid' })
  tableId: string;

  @PrimaryColumn({ name: 'game_no', type: 'integer' })
  gameNo: number;

  @Column({ type: 'text', default: 'in-progress' })
  status: 'in-progress' | 'finished' | 'voided' | 'abandoned';

  @Column({ name: 'automatic_doubles', type: 'integer', default: 0 })
  automaticDoubles: number;

  @Column({ type: 'jsonb' })
  setup: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  actions: StoredAction[];

  @Column({ type: 'jsonb', nullable: true })
  result: Record<string, unknown> | null;

  @Column({ type: 'integer', nullable: true })
  points: number | null;

  /** Match/money: 0 or 1; chouette: 0 = the box side, 1 = the team. */
  @Column({ name: 'winner_side', type: 'smallint', nullable: true })
  winnerSide: number | null;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  @Column({ name: 'voided_at', type: 'timestamptz', nullable: true })
  voidedAt: Date | null;

  @Column({ name: 'void_reason', type: 'text', nullable: true })
  voidReason: string | null;

  @Column({ name: 'voided_by', type: 'uuid', nullable: true })
  voidedBy: string | null;

  @Column({ type: 'integer', default: 1 })
  version: number;

  /** Who played the game (a chouette's seats at its start), for statements (R6.5). */
  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  players: string[];
}

/** A new table row: no game played yet, version 1 (matches, money games, chouettes, team-event boards). */
export function newTableRow<K extends TableKind>(
  clubId: string,
  kind: K,
  sessionId: string | null,
  setup: TableSetups[K],
  state: TableStates[K],
  stakeMinor: number | null,
  now: Date = new Date(),
): TableRow<K> {
  return {
    clubId,
    id: uuid7(),
    kind,
    sessionId,
    status: 'in-progress',
    setup,
    state,
    stakeMinor: stakeMinor === null ? null : String(stakeMinor),
    nextGameNo: 1,
    currentGameNo: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}
