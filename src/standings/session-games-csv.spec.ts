import { parseCsv } from '../../test/support/csv';
import { renderSessionGamesCsv, SESSION_GAMES_COLUMNS, SessionGameCsvRow } from './session-games-csv';

const game = (g: Partial<SessionGameCsvRow> = {}): SessionGameCsvRow => ({
  tableKind: 'money',
  tableId: 't1',
  gameNo: 1,
  variant: 'backgammon',
  status: 'finished',
  startedAt: '2026-11-03T19:00:00.000Z',
  endedAt: '2026-11-03T19:20:00.000Z',
  players: [
    { id: 'a', name: 'Ann' },
    { id: 'b', name: 'Bob' },
  ],
  winnerSide: 0,
  winners: [{ id: 'a', name: 'Ann' }],
  result: { result: 'gammon', resigned: false },
  endedBy: 'finish',
  points: 4,
  voidReason: null,
  matchEndedBy: null,
  ...g,
});

describe('session games CSV', () => {
  it('writes the header and one CRLF-terminated row per game', () => {
    const text = renderSessionGamesCsv([game()]);
    expect(text).toBe(
      `${SESSION_GAMES_COLUMNS.join(',')}\r\n` + 'money,t1,1,finished,2026-11-03T19:00:00.000Z,2026-11-03T19:20:00.000Z,Ann / Bob,0,Ann,gammon,false,finish,4,,a b,a,backgammon,,,,\r\n',
    );
    expect(renderSessionGamesCsv([])).toBe(`${SESSION_GAMES_COLUMNS.join(',')}\r\n`);
  });

  it('leaves out what a game does not have: abandoned, no winner, no result, no points', () => {
    const [, row] = parseCsv(
      renderSessionGamesCsv([game({ status: 'abandoned', endedAt: '2026-11-03T19:05:00.000Z', winnerSide: null, winners: [], result: null, endedBy: null, points: null })]),
    );
    expect(row).toEqual([
      'money',
      't1',
      '1',
      'abandoned',
      '2026-11-03T19:00:00.000Z',
      '2026-11-03T19:05:00.000Z',
      'Ann / Bob',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      'a b',
      '',
      'backgammon',
      '',
      '',
      '',
      '',
    ]);
  });

  it('quotes separators, quotes and line breaks (RFC 4180) and guards formula-like text', () => {
    const text = renderSessionGamesCsv([
      game({
        players: [
          { id: 'a', name: '=HYPERLINK("x")' },
          { id: 'b', name: 'Bob, "the cube"' },
        ],
        winners: [{ id: 'b', name: 'Bob, "the cube"' }],
        winnerSide: 1,
        status: 'voided',
        voidReason: '-wrong table\nsorry',
      }),
    ]);
    const rows = parseCsv(text);
    expect(rows).toHaveLength(2);
    expect(rows[1][6]).toBe('\'=HYPERLINK("x") / Bob, "the cube"');
    expect(rows[1][8]).toBe('Bob, "the cube"');
    expect(rows[1][13]).toBe("'-wrong table\nsorry");
    expect(text).toContain('"\'=HYPERLINK(""x"") / Bob, ""the cube"""');
  });

  it("R8.9: names each game's variant and writes the variants' results (oin, mars, mother, draw, Tavla 31's checkersLeft)", () => {
    const rows = parseCsv(
      renderSessionGamesCsv([
        game({ variant: 'long-nardy', result: { result: 'mars', resigned: false }, points: 2 }),
        game({ gameNo: 2, variant: 'long-nardy', result: { result: 'oin', resigned: true }, points: 1 }),
        game({ gameNo: 3, variant: 'plakoto', result: { result: 'mother', resigned: false }, points: 2 }),
        game({ gameNo: 4, variant: 'plakoto', winnerSide: null, winners: [], result: { result: 'draw', resigned: false }, points: 0 }),
        game({ gameNo: 5, variant: 'tavla-31', result: { result: 'single', resigned: false, checkersLeft: 7 }, points: 7 }),
      ]),
    );
    const col = (name: (typeof SESSION_GAMES_COLUMNS)[number]) => rows.slice(1).map((r) => r[SESSION_GAMES_COLUMNS.indexOf(name)]);
    expect(rows[0].slice(16, 18)).toEqual(['variant', 'checkersLeft']);
    expect(col('variant')).toEqual(['long-nardy', 'long-nardy', 'plakoto', 'plakoto', 'tavla-31']);
    expect(col('result')).toEqual(['mars', 'oin', 'mother', 'draw', 'single']);
    expect(col('resigned')).toEqual(['false', 'true', 'false', 'false', 'false']);
    expect(col('points')).toEqual(['2', '1', '2', '0', '7']);
    expect(col('checkersLeft')).toEqual(['', '', '', '', '7']);
    // A draw (R8.3): no winner, finished by `finish`, worth nothing.
    expect([col('winnerSide')[3], col('winners')[3], col('winnerIds')[3], col('endedBy')[3]]).toEqual(['', '', '', 'finish']);
  });

  it("R3.9: writes how a finished match ended on its last game's row, and nothing on the others", () => {
    const rows = parseCsv(
      renderSessionGamesCsv([
        game({ tableKind: 'match', gameNo: 1 }),
        game({
          tableKind: 'match',
          gameNo: 2,
          status: 'abandoned',
          winnerSide: null,
          winners: [],
          result: null,
          endedBy: null,
          points: null,
          matchEndedBy: { kind: 'forfeit', side: 1, reason: 'lateness' },
        }),
        game({ tableKind: 'match', tableId: 't2', gameNo: 1, matchEndedBy: { kind: 'points' } }),
      ]),
    );
    expect(rows[0].slice(-3)).toEqual(['matchEndedBy', 'forfeitSide', 'forfeitReason']);
    expect(rows.slice(1).map((r) => r.slice(-3))).toEqual([
      ['', '', ''],
      ['forfeit', '1', 'lateness'],
      ['points', '', ''],
    ]);
  });

  it("writes the times in the club's zone with their offset, across a daylight saving change", () => {
    const rows = parseCsv(
      renderSessionGamesCsv(
        [
          game({ startedAt: '2026-03-08T06:40:00.000Z', endedAt: '2026-03-08T07:10:00.000Z' }),
          game({ gameNo: 2, startedAt: '2026-03-08T07:20:00.000Z', endedAt: null, status: 'abandoned' }),
        ],
        { timeZone: 'America/New_York' },
      ),
    );
    const at = (name: 'startedAt' | 'endedAt') => rows.slice(1).map((r) => r[SESSION_GAMES_COLUMNS.indexOf(name)]);
    expect(at('startedAt')).toEqual(['2026-03-08T01:40:00.000-05:00', '2026-03-08T03:20:00.000-04:00']);
    expect(at('endedAt')).toEqual(['2026-03-08T03:10:00.000-04:00', '']);
    const tokyo = parseCsv(renderSessionGamesCsv([game()], { timeZone: 'Asia/Tokyo' }));
    expect(tokyo[1].slice(4, 6)).toEqual(['2026-11-04T04:00:00.000+09:00', '2026-11-04T04:20:00.000+09:00']);
  });

  it('starts with a UTF-8 byte-order mark only when asked', () => {
    const plain = renderSessionGamesCsv([
      game({
        players: [
          { id: 'a', name: '王小明' },
          { id: 'b', name: 'דוד' },
        ],
      }),
    ]);
    const withBom = renderSessionGamesCsv(
      [
        game({
          players: [
            { id: 'a', name: '王小明' },
            { id: 'b', name: 'דוד' },
          ],
        }),
      ],
      { bom: true },
    );
    expect(plain.charCodeAt(0)).not.toBe(0xfeff);
    expect(withBom).toBe(`\uFEFF${plain}`);
    expect(parseCsv(withBom)[1][6]).toBe('王小明 / דוד');
  });

  it('refuses a number that is not a safe integer', () => {
    expect(() => renderSessionGamesCsv([game({ points: 1.5 })])).toThrow(RangeError);
  });
});
