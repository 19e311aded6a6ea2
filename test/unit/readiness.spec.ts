import { lookReady, READY_SQL } from '../../src/health/readiness-probe';

/** A probe that answers `row` (or fails with `error`), checking it was asked READY_SQL. */
const answering = (row: Record<string, unknown> | null, error?: Error & { code?: string }) => (sql: string) => {
  expect(sql).toBe(READY_SQL);
  return error ? Promise.reject(error) : Promise.resolve(row ? [row] : []);
};

describe('GET /ready: what the instance waits for', () => {
  const expected = ['Skeleton1', 'Tables2', 'Events3'];

  it('is ready on a primary with every migration applied', async () => {
    expect(await lookReady(expected, answering({ standby: false, names: expected }))).toEqual({ missing: [] });
  });

  it('says primary when the database answers as a standby (a failover under way, a proxy not yet moved)', async () => {
    expect(await lookReady(expected, answering({ standby: true, names: expected }))).toEqual({ missing: ['primary'] });
  });

  it('lists the migrations not applied, after primary when both are missing', async () => {
    expect(await lookReady(expected, answering({ standby: true, names: ['Skeleton1'] }))).toEqual({ missing: ['primary', 'migration:Tables2', 'migration:Events3'] });
    expect(await lookReady(expected, answering({ standby: false, names: ['Skeleton1', 'Events3'] }))).toEqual({ missing: ['migration:Tables2'] });
  });

  it('says database when the database does not answer, and every migration when it has no migrations table', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(await lookReady(expected, answering(null, down))).toEqual({ missing: ['database'] });
    const fresh = Object.assign(new Error('relation "migrations" does not exist'), { code: '42P01' });
    expect(await lookReady(expected, answering(null, fresh))).toEqual({ missing: expected.map((n) => `migration:${n}`) });
  });
});
