import type { Connection } from '../../src/db/connection';
import { Tx } from '../../src/db/tx';
import type { NewEvent } from '../../src/outbox/event-types';
import { eventsInsert } from '../../src/outbox/events-insert';

/** A command's events as one INSERT (src/outbox/events-insert.ts), in the order given. */
describe('eventsInsert', () => {
  const club = '0190c3a2-0000-7000-8000-0000000000c1';
  const game = { gameNo: 3, status: 'finished', tableId: 't1', tableKind: 'match' };
  const ev = (type: NewEvent['type'], data: unknown, id = 't1/games/3'): NewEvent => ({ type, sessionId: 's1', subject: { kind: 'game', id }, data });

  it('writes the events as one VALUES list, in their order, the club once and data shared by events once', () => {
    const table = { id: 't1', status: 'finished' };
    const w = eventsInsert(club, [ev('game.started', game), ev('game.finished', game), { type: 'table.updated', sessionId: 's1', subject: { kind: 'match', id: 't1' }, data: table }]);
    // The game's data is parameter 2 for both game events; the table's, parameter 11.
    expect(w.text).toBe(
      'INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data) VALUES ($1, $3, $4, $5, $6, $2), ($1, $7, $8, $9, $10, $2), ($1, $12, $13, $14, $15, $11)',
    );
    expect(w.values).toEqual([
      club,
      JSON.stringify(game),
      ...['game.started', 's1', 'game', 't1/games/3'],
      ...['game.finished', 's1', 'game', 't1/games/3'],
      JSON.stringify(table),
      ...['table.updated', 's1', 'match', 't1'],
    ]);
    expect(w.guard).toBeUndefined();
  });

  it('goes into the batch as one write: one CTE, whatever the number of events', () => {
    const tx: Tx = new Tx({} as Connection);
    tx.defer(eventsInsert(club, [ev('game.action', game), ev('game.finished', game)]));
    const batch = tx.takeDeferred()!;
    expect(batch.text.match(/INSERT INTO events/g)).toHaveLength(1);
    expect(batch.text).toMatch(/^WITH w0 AS \(INSERT INTO events .* RETURNING 1\) SELECT 1$/);
  });

  it('writes null session ids as they are', () => {
    const w = eventsInsert(club, [{ type: 'player.created', sessionId: null, subject: { kind: 'player', id: 'p1' }, data: { id: 'p1' } }]);
    expect(w.values).toEqual([club, '{"id":"p1"}', 'player.created', null, 'player', 'p1']);
  });
});
