import { Client } from 'pg';
import type { KeyAuth } from '../../src/common/auth';
import { ReplayedAnswer, type CommandContext } from '../../src/common/command';
import { ClubsService } from '../../src/clubs/clubs.service';
import { RuleViolation } from '../../src/domain/errors';
import { PlayersService } from '../../src/players/players.service';
import { SessionsService } from '../../src/sessions/sessions.service';
import { GamesService } from '../../src/tables/games.service';
import { TablesService } from '../../src/tables/tables.service';
import { cloneDatabase } from '../support/app';
import { ServiceTier } from '../support/service-tier';

/**
 * The service tier: the services on a real database, called as the controllers call
 * them, in the test's own process: no HTTP, no child process. It checks what a command
 * writes in its one transaction (the game, the ledger, the events), what a refusal
 * leaves (nothing), and an idempotent replay, from the rows themselves.
 */
describe('service tier: a money game through the services', () => {
  let tier: ServiceTier;
  let owner: Client;
  let auth: KeyAuth;
  let A: string, B: string, tableId: string, sessionId: string;
  // The status is the route's (the edge sets it): every command here is a POST that creates, answered 201.
  const cmd = (idempotency: CommandContext['idempotency'] = null): CommandContext => ({ auth, idempotency, successStatus: 201 });

  beforeAll(async () => {
    const db = await cloneDatabase();
    owner = new Client({ connectionString: db.url });
    await owner.connect();
    tier = new ServiceTier(db.appUrl);
    const club = await tier.get(ClubsService).create({ auth: { kind: 'operator' }, idempotency: null, successStatus: 201 }, { name: 'Service club', currency: 'USD' });
    auth = { kind: 'key', clubId: club.club.id, keyId: club.apiKey.id, role: 'owner' };
    A = (await tier.get(PlayersService).create(cmd(), auth, { name: 'Anna' })).id;
    B = (await tier.get(PlayersService).create(cmd(), auth, { name: 'Ben' })).id;
    sessionId = (await tier.get(SessionsService).create(cmd(), auth, { name: 'Club night', rakePercent: 2.5 })).id;
    tableId = (await tier.get(TablesService).createMoneyGame(cmd(), auth, { sessionId, players: [A, B], stakeMinor: 100 })).id;
  });
  afterAll(async () => {
    await tier?.close();
    await owner?.end();
  });

  const rows = async <T>(text: string, values: unknown[] = []) => (await owner.query(text, values)).rows as T[];
  const eventTypes = async () => (await rows<{ type: string }>(`SELECT type FROM events WHERE club_id = $1 ORDER BY tx, seq`, [auth.clubId])).map((e) => e.type);

  it('records a whole game in one command: the game, the ledger (R4.2, R6.4 rake to the house) and its events, all or nothing', async () => {
    const before = await eventTypes();
    const game = await tier.get(GamesService).start(cmd(), auth, 'money', tableId, undefined, {
      actions: [
        { type: 'double', by: A },
        { type: 'take', by: B },
        { type: 'finish', winner: A, result: 'single', resigned: false },
      ],
    } as never);
    expect(game).toMatchObject({ gameNo: 1, status: 'finished', points: 2, winnerSide: 0 });
    // R4.2: Ben pays 2 × 100; R6.4: 2.5 % of Anna's gain of 200, rounded down, is 5 for the house.
    const ledger = await rows<{ from_party: string; to_party: string; amount_minor: string; kind: string }>(
      `SELECT from_party, to_party, amount_minor::text, kind FROM ledger_entries WHERE club_id = $1 AND table_id = $2 ORDER BY kind, from_party`,
      [auth.clubId, tableId],
    );
    expect(ledger).toEqual([
      { from_party: B, to_party: A, amount_minor: '200', kind: 'game' },
      { from_party: A, to_party: 'house', amount_minor: '5', kind: 'rake' },
    ]);
    // The table's status did not change (it stays in play), so no table.updated: the game's own events carry the net.
    expect((await eventTypes()).slice(before.length)).toEqual(['game.started', 'game.finished']);
  });

  it('refuses a take with no double offered in the domain (R2.3), and the refused command writes nothing', async () => {
    const games = await rows(`SELECT * FROM games WHERE club_id = $1 ORDER BY game_no`, [auth.clubId]);
    const events = await eventTypes();
    const refusal = await tier
      .get(GamesService)
      .start(cmd(), auth, 'money', tableId, undefined, { actions: [{ type: 'take', by: B }] } as never)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refusal).toBeInstanceOf(RuleViolation);
    expect(refusal).toMatchObject({ code: 'NO_OFFER_PENDING', rule: 'R2.3' });
    expect(await rows(`SELECT * FROM games WHERE club_id = $1 ORDER BY game_no`, [auth.clubId])).toEqual(games);
    expect(await eventTypes()).toEqual(events);
  });

  it('answers a repeated Idempotency-Key with the stored answer and records nothing twice', async () => {
    const key = { key: 'service-tier-1', requestHash: 'h1', sealKey: Buffer.alloc(32, 7) };
    const first = await tier.get(PlayersService).create(cmd(key), auth, { name: 'Cleo' });
    // The replay is no result: Commands.run throws the stored answer (the edge answers it), status and text.
    const again = await tier
      .get(PlayersService)
      .create(cmd(key), auth, { name: 'Cleo' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(again).toBeInstanceOf(ReplayedAnswer);
    expect((again as ReplayedAnswer).status).toBe(201);
    expect(JSON.parse((again as ReplayedAnswer).body)).toEqual(first);
    expect(await rows(`SELECT name FROM players WHERE club_id = $1 AND name = 'Cleo'`, [auth.clubId])).toHaveLength(1);
  });
});
