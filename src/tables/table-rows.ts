/**
 * Decoders of `game_tables` rows: the columns, then the JSON checked against the table's
 * kind (src/tables/stored-state.ts). Framework-free, for the repository and for code that
 * runs without Nest (src/tables/pure.ts).
 */
import { cols, Decoder, Row } from '../db/decode';
import { decodeTable, RawTable, StoredTable, TableKind, TableRowOf } from './stored-state';

const TABLE_STATUSES: readonly StoredTable['status'][] = ['in-progress', 'finished'];

/**
 * The columns of a `game_tables` row; its JSON columns still to be checked against its
 * kind. Read directly or through row_to_json (timestamps as text, bigint as a number).
 */
const tableColumns = (r: Row): RawTable => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    kind: c.text('kind'),
    sessionId: c.textOrNull('session_id'),
    status: c.oneOf('status', TABLE_STATUSES),
    setup: c.json('setup'),
    state: c.json('state'),
    stakeMinor: c.bigintTextOrNull('stake_minor'),
    nextGameNo: c.int('next_game_no'),
    currentGameNo: c.intOrNull('current_game_no'),
    version: c.int('version'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
  };
};

/** A table of the kind the query asked for, its setup and state checked against that kind. */
export const tableOf =
  <K extends TableKind>(kind: K): Decoder<TableRowOf<K>> =>
  (r) =>
    decodeTable(tableColumns(r), kind);
