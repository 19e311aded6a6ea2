import { StatementFailed } from '../../src/common/db-failures';
import { loggableError } from '../../src/common/logging';
import { statementLabel } from '../../src/common/sql-names';

/** A PostgreSQL error as node-postgres raises it, quoting the value like PostgreSQL does. */
function pgError(code: string, value: string) {
  return Object.assign(new Error(`new row for relation "players" violates check constraint "players_name_check": ${value}`), {
    code,
    detail: `Failing row contains (${value}).`,
    where: `SQL statement "INSERT INTO players VALUES ('${value}')"`,
    table: 'players',
    constraint: 'players_name_check',
    routine: 'ExecConstraints',
    severity: 'ERROR',
  });
}

describe('what the log says of a failed statement', () => {
  const secret = 'Zebedee-7f3a';

  it('gives the SQLSTATE, the statement and the schema names, and none of the values', () => {
    const sql = 'WITH w0 AS (INSERT INTO players (club_id, id, name) VALUES ($1, $2, $3) RETURNING 1), w1 AS (INSERT INTO audit_log (body) VALUES ($4) RETURNING 1) SELECT 1';
    const e = new StatementFailed(sql, ['c1', 'p1', secret, JSON.stringify({ name: secret })], pgError('XX001', secret));
    const logged = loggableError(e);
    expect(logged).toMatchObject({
      type: 'StatementFailed',
      sqlState: 'XX001',
      statement: 'INSERT players, INSERT audit_log',
      statementId: expect.stringMatching(/^bg_[0-9a-f]{20}$/),
      table: 'players',
      constraint: 'players_name_check',
    });
    const text = JSON.stringify(logged);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/VALUES|\$1/);
  });

  it("describes a wrapped database error (an error's cause) the same way", () => {
    const inner = new StatementFailed('UPDATE players SET name = $1 WHERE id = $2', [secret, 'p1'], pgError('23514', secret));
    const outer = new Error('the commit failed', { cause: inner });
    const logged = loggableError(outer);
    expect(logged).toMatchObject({ type: 'Error', message: 'the commit failed', cause: { sqlState: '23514', statement: 'UPDATE players' } });
    expect(JSON.stringify(logged)).not.toContain(secret);
  });

  it('keeps the fixed message of a driver failure (no SQLSTATE: a timeout, a lost connection)', () => {
    const e = new StatementFailed('SELECT id FROM game_tables WHERE id = $1 FOR UPDATE', [secret], new Error('Query read timeout'));
    expect(loggableError(e)).toMatchObject({ message: 'Query read timeout', statement: 'SELECT game_tables' });
    expect(JSON.stringify(loggableError(e))).not.toContain(secret);
  });

  it('names statements by what they do to which tables, never by a literal', () => {
    expect(statementLabel('INSERT INTO rate_limit_counters (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET hits = rate_limit_counters.hits + $1')).toBe('INSERT rate_limit_counters');
    expect(statementLabel('SELECT t.id FROM game_tables t WHERE t.club_id = $1 FOR UPDATE')).toBe('SELECT game_tables');
    expect(statementLabel('DELETE FROM idempotency_keys WHERE created_at < $1')).toBe('DELETE idempotency_keys');
    expect(statementLabel(`SELECT bg_expect_rows(1, 1, 'INSERT INTO ${secret}') FROM "games"`)).toBe('SELECT games');
    expect(statementLabel('COMMIT')).toBe('COMMIT');
  });
});
