import { DataSource } from 'typeorm';
import { TableNets1796954400000 } from '../migrations/1796954400000-TableNets';
import { dataSourceOptions } from '../src/data-source';
import { rebuildReadModels } from '../src/player-stats/rebuild';
import { bearer, startApp, TestApp } from './support/app';
import { clubWith, double, finish, pass, take } from './support/club';
import { queryRunnerSqlClient, readModelDifferences } from './support/read-models';

/**
 * A table's nets (each party's received − paid at the table) are a running total per
 * table and party (table_nets), kept by every command that posts at a table. After each
 * command the nets the GET answers are the ones worked out by hand from the rules below,
 * the stored totals (the house's too) agree, and every read model equals a rebuild from
 * the ledger. Then the migration's backfill is run again on the ledger as it stands.
 */
describe("a table's running nets (table_nets)", () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string, E: string;
  let clubId: string;
  /** What each table's nets must be at the end (with the house), for the backfill check. */
  const final = new Map<string, Record<string, number>>();

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve']);
    ({ Anna: A, Ben: B, Cleo: C, Dan: D, Eve: E } = c.ids);
    clubId = (await t.sql<{ club_id: string }>('SELECT club_id FROM players WHERE id = $1', [A]))[0].club_id;
  });
  afterAll(() => t.close());

  /** The table's stored running nets, rows of 0 left out. */
  const stored = async (id: string) =>
    Object.fromEntries(
      (await t.sql<{ party: string; net: string }>('SELECT party, net_minor::text AS net FROM table_nets WHERE table_id = $1 AND net_minor <> 0', [id])).map((r) => [r.party, Number(r.net)]),
    );
  const nonZero = (n: Record<string, number>) => Object.fromEntries(Object.entries(n).filter(([, v]) => v !== 0));

  /** The money game's nets as its GET answers them, the stored ones (the house's too), and the read models against a rebuild. */
  const moneyNets = async (id: string, players: Record<string, number>, house: number) => {
    expect((await c.get(`/v1/money-games/${id}`)).body.netMinor).toEqual(players);
    expect(await stored(id)).toEqual(nonZero({ ...players, house }));
    expect(await readModelDifferences(t)).toEqual([]);
    final.set(id, nonZero({ ...players, house }));
  };

  /** The same for a chouette: every player who sat there, with his net. */
  const chouetteNets = async (id: string, players: Record<string, number>, house: number) => {
    const body = (await c.get(`/v1/chouettes/${id}`)).body;
    expect(Object.fromEntries(body.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]))).toEqual(players);
    expect(await stored(id)).toEqual(nonZero({ ...players, house }));
    expect(await readModelDifferences(t)).toEqual([]);
    final.set(id, nonZero({ ...players, house }));
    return body;
  };

  it('money game: games, a resignation, an undo, a refused offer, voids, an abandon and a pass (R4.2, R1.4, R1.5, R6.3, R6.4)', async () => {
    const session = await c.session({ rakePercent: 10 });
    const id = (await c.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 50 })).body.id as string;
    const url = `/v1/money-games/${id}/games`;
    await moneyNets(id, { [A]: 0, [B]: 0 }, 0);

    // Game 1: Anna doubles, Ben takes (his cube), Anna wins a gammon: the cube has an owner,
    // so Jacoby is off: 2 × 2 = 4 points × 50 = 200 from Ben; 10 % of Anna's 200 to the house.
    expect((await c.post(url, { actions: [double(A), take(B), finish(A, 'gammon')] })).status).toBe(201);
    await moneyNets(id, { [A]: 180, [B]: -200 }, 20);

    // Game 2: Ben doubles, Anna takes; Anna resigns a gammon (R1.4: scored as a gammon): 4 × 50 = 200 to Ben, 20 raked.
    expect((await c.post(url, { actions: [double(B), take(A), finish(B, 'gammon', true)] })).status).toBe(201);
    await moneyNets(id, { [A]: -20, [B]: -20 }, 40);

    // Game 3, action by action: a double undone leaves the cube centred; an offer refused changes nothing.
    expect((await c.post(url)).status).toBe(201);
    expect((await c.post(`${url}/3/actions`, double(A))).status).toBe(200);
    expect((await c.post(`${url}/3/undo`)).body.cubes[0]).toMatchObject({ value: 1, owner: null, pending: null });
    expect((await c.post(`${url}/3/actions`, { type: 'resign-refused', by: A, result: 'single' })).status).toBe(200);
    await moneyNets(id, { [A]: -20, [B]: -20 }, 40);
    // Ben wins a gammon on the centred cube: Jacoby makes it single, 1 × 50; 5 raked.
    expect((await c.post(`${url}/3/actions`, finish(B, 'gammon'))).body.payouts).toHaveLength(2);
    await moneyNets(id, { [A]: -70, [B]: 25 }, 45);

    // R6.3: voiding game 3, then game 2 (the latest finished one now), takes each back, rake included.
    expect((await c.post(`${url}/3/void`, { reason: 'Wrong table' })).status).toBe(200);
    await moneyNets(id, { [A]: -20, [B]: -20 }, 40);
    expect((await c.post(`${url}/2/void`, { reason: 'Recorded twice' })).status).toBe(200);
    await moneyNets(id, { [A]: 180, [B]: -200 }, 20);

    // Game 4 abandoned: nothing posted.
    await c.post(url, { actions: [double(A)] });
    expect((await c.post(`${url}/4/abandon`)).body.status).toBe('abandoned');
    await moneyNets(id, { [A]: 180, [B]: -200 }, 20);

    // Game 5: Ben doubles, Anna passes (R1.3): the value before the double, 1 × 50, to Ben; 5 raked.
    expect((await c.post(url, { actions: [double(B), pass(A)] })).status).toBe(201);
    await moneyNets(id, { [A]: 130, [B]: -155 }, 25);
  });

  it('chouette: a pass, per-player stakes, an undo, a resignation, a void, joins and leaves, an abandon (R5.4–R5.8, R5.11, R6.3, R6.4)', async () => {
    const session = await c.session({ rakePercent: 10 });
    // Box Anna, captain Ben, then Cleo and Dan; Dan plays for 50 (R5.11: the smaller stake), everyone else for 100.
    const created = await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, stakes: [{ playerId: D, stakeMinor: 50 }], seating: { order: [A, B, C, D] } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const url = `/v1/chouettes/${id}/games`;
    await chouetteNets(id, { [A]: 0, [B]: 0, [C]: 0, [D]: 0 }, 0);

    // Game 1: the box doubles Cleo and Dan; Cleo takes, Dan passes and pays the value before
    // the double, 1 × 50. The team wins a single: Ben (cube 1) 100, Cleo (cube 2) 200 from Anna.
    // Rake (R6.4), 10 % of each winner's gain: Ben 10, Cleo 20.
    expect((await c.post(url, { actions: [double(A, { cubes: [C, D] }), take(C), pass(D), finish(B)] })).status).toBe(201);
    const afterGame1 = await chouetteNets(id, { [A]: -250, [B]: 90, [C]: 180, [D]: -50 }, 30);
    // R5.7: the captain beat the box: Ben boxes, Anna to the back.
    expect(afterGame1).toMatchObject({ box: B, captain: C, team: [C, D, A] });

    // Game 2, action by action: Dan doubles box Ben, who takes; the take is undone, then taken again.
    expect((await c.post(url, { actions: [double(D), take(B)] })).status).toBe(201);
    expect((await c.post(`${url}/2/undo`)).body.cubes.find((x: { member: string }) => x.member === D)).toMatchObject({ value: 1, pending: { by: D, value: 2 } });
    await chouetteNets(id, { [A]: -250, [B]: 90, [C]: 180, [D]: -50 }, 30);
    expect((await c.post(`${url}/2/actions`, take(B))).status).toBe(200);
    // The team resigns a gammon to the box (R1.4). Jacoby per cube (R5.6): Cleo's and Anna's
    // centred cubes pay a single, 100 each; Dan's cube (2, Ben's) the gammon, 2 × 2 × 50 = 200.
    // Ben gains 400: 40 raked.
    const g2 = await c.post(`${url}/2/actions`, finish(B, 'gammon', true));
    expect(g2.body).toMatchObject({ status: 'finished', result: { winner: B, result: 'gammon', resigned: true } });
    await chouetteNets(id, { [A]: -350, [B]: 450, [C]: 80, [D]: -250 }, 70);

    // R6.3: the void takes game 2 back, rake included, and the seats with it.
    expect((await c.post(`${url}/2/void`, { reason: 'Wrong board' })).status).toBe(200);
    expect(await chouetteNets(id, { [A]: -250, [B]: 90, [C]: 180, [D]: -50 }, 30)).toMatchObject({ box: B, captain: C, team: [C, D, A] });

    // Game 3: the team wins a single on centred cubes: Ben pays Cleo 100, Dan 50, Anna 100;
    // 10 % of each gain raked (10, 5, 10).
    expect((await c.post(url, { actions: [finish(C)] })).status).toBe(201);
    const afterGame3 = await chouetteNets(id, { [A]: -160, [B]: -160, [C]: 270, [D]: -5 }, 55);
    expect(afterGame3).toMatchObject({ box: C, captain: D, team: [D, A, B] });
    // The last table.updated carries the same nets as the GET.
    const [event] = await t.sql<{ data: { players: unknown } }>(`SELECT data FROM events WHERE type = 'table.updated' AND subject_id = $1 ORDER BY tx DESC, seq DESC LIMIT 1`, [id]);
    expect(event.data.players).toEqual(afterGame3.players);

    // Eve joins and Dan leaves (nothing posted): Eve shows 0, Dan keeps his net.
    expect((await c.post(`/v1/chouettes/${id}/players`, { playerId: E })).status).toBe(201);
    expect((await t.http().delete(`/v1/chouettes/${id}/players/${D}`).set(bearer(c.owner))).status).toBe(200);
    await chouetteNets(id, { [A]: -160, [B]: -160, [C]: 270, [D]: -5, [E]: 0 }, 55);

    // Game 4 abandoned: nothing posted.
    await c.post(url);
    expect((await c.post(`${url}/4/abandon`)).body.status).toBe('abandoned');
    await chouetteNets(id, { [A]: -160, [B]: -160, [C]: 270, [D]: -5, [E]: 0 }, 55);
  });

  it('match: stakes posted by a forfeit for penalties, by points, and taken back by voids (R3.6, R3.8, R3.9)', async () => {
    const session = await c.session({ rakePercent: 10 });
    const id = (await c.post('/v1/matches', { sessionId: session, sides: [[A], [B]], target: 3, stakeMinor: 300 })).body.id as string;
    const check = async (nets: Record<string, number>) => {
      expect(await stored(id)).toEqual(nets);
      expect(await readModelDifferences(t)).toEqual([]);
      final.set(id, nets);
    };
    // Penalties to Ben: 1, then 2 in all, more than half of 3: Anna forfeits (R3.6); Anna
    // pays the stake, 300, never raked (R6.4).
    expect((await c.post(`/v1/matches/${id}/penalties`, { side: 1, points: 1, reason: 'Late' })).body).toMatchObject({ status: 'in-progress' });
    await check({});
    expect((await c.post(`/v1/matches/${id}/penalties`, { side: 1, points: 1, reason: 'Late again' })).body).toMatchObject({ status: 'finished', winnerSide: 1 });
    await check({ [A]: -300, [B]: 300 });
    // The penalty voided: the match is open again and the stake taken back.
    expect((await c.post(`/v1/matches/${id}/void`, { reason: 'Ruling reversed' })).body).toMatchObject({ status: 'in-progress', score: [0, 1] });
    await check({});
    // Anna wins a doubled single (2 points): 2-1, then a single: 3-1, and Ben pays the stake.
    await c.post(`/v1/matches/${id}/games`, { actions: [double(B), take(A), finish(A)] });
    await check({});
    expect((await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] })).body.payouts).toEqual([{ from: B, to: A, amountMinor: 300, kind: 'match-stake' }]);
    await check({ [A]: 300, [B]: -300 });
    // The last game voided: the match is open again, the stake taken back; won again by Ben's forfeit.
    expect((await c.post(`/v1/matches/${id}/void`, { reason: 'Wrong score' })).body).toMatchObject({ status: 'in-progress', score: [2, 1] });
    await check({});
    expect((await c.post(`/v1/matches/${id}/forfeit`, { side: 1, reason: 'withdrawal' })).status).toBe(201);
    await check({ [A]: 300, [B]: -300 });
  });

  it("the migration's backfill gives the same nets from the ledger as it stands, and a rebuild repairs them", async () => {
    const ds = new DataSource(dataSourceOptions({ url: t.dbUrl, poolSize: 1 }));
    await ds.initialize();
    const q = ds.createQueryRunner();
    const all = async () => {
      const rows = await q.query(`SELECT table_id, party, net_minor::text AS net FROM table_nets WHERE club_id = $1 AND net_minor <> 0 ORDER BY table_id, party`, [clubId]);
      const out = new Map<string, Record<string, number>>();
      for (const r of rows as Array<{ table_id: string; party: string; net: string }>) out.set(r.table_id, { ...out.get(r.table_id), [r.party]: Number(r.net) });
      return out;
    };
    const expected = new Map([...final].filter(([, n]) => Object.keys(n).length > 0));
    try {
      await q.startTransaction();
      // As before the migration: no running nets. Then the migration, filling them from the ledger.
      await q.query('DROP TABLE table_nets');
      await new TableNets1796954400000().up(q);
      expect(await all()).toEqual(expected);
      const db = queryRunnerSqlClient(q);
      expect(await rebuildReadModels(db, clubId, 'check')).toEqual([]);
      // A total gone wrong is found by the check, and set right by a rebuild.
      await q.query(`UPDATE table_nets SET net_minor = net_minor + 7 WHERE club_id = $1 AND party = $2`, [clubId, A]);
      expect((await rebuildReadModels(db, clubId, 'check')).some((d) => d.startsWith('table_nets: '))).toBe(true);
      await rebuildReadModels(db, clubId, 'write');
      expect(await rebuildReadModels(db, clubId, 'check')).toEqual([]);
      expect(await all()).toEqual(expected);
    } finally {
      // Nothing of this is kept: the app's own table stays as the commands left it.
      await q.rollbackTransaction().catch(() => undefined);
      await q.release();
      await ds.destroy();
    }
    expect(await readModelDifferences(t)).toEqual([]);
  });
});
