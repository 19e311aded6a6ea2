import fc from 'fast-check';
import { HOUSE } from '../../src/domain/settlement';
import { buildStatement, Statement, StatementInput } from '../../src/domain/statement';
import { parseCsv } from '../support/csv';
import { renderStatementCsv } from '../../src/settlement/statement-csv';

const HEADER = 'record,playerId,name,games,netMinor,paidMinor,receivedMinor,outstandingMinor,fromId,fromName,toId,toName,amountMinor,currency,note,at,net,paid,received,outstanding,amount';
const COLUMNS = HEADER.split(',');
const col = (name: string): number => {
  const i = COLUMNS.indexOf(name);
  if (i < 0) throw new Error(`no column ${name}`);
  return i;
};

/** The documented formula guard: these leading characters get a `'` in front. */
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', "'"];
const guarded = (v: string): string => (v.length > 0 && TRIGGERS.includes(v[0]) ? `'${v}` : v);
/** The documented way back: drop one leading `'`. */
const unguard = (v: string): string => (v.startsWith("'") ? v.slice(1) : v);

/** CSV text with the quoted fields blanked out, so only record structure is left. */
const outsideQuotes = (csv: string): string => csv.replace(/"(?:[^"]|"")*"/g, '""');

const HYPER = '=HYPERLINK("x")';
const ONEIL = 'O\'Neil, "Bo"';
const NOTE_1 = 'cash, "half" now\nrest later';
const NOTE_2 = '@rake, "paid"\r\nthanks';

function sampleInput(): StatementInput {
  return {
    session: {
      id: 's-1',
      name: 'Friday, "big" night',
      currency: 'EUR',
      status: 'closed',
      rakeBp: 500,
      startsAt: null,
      closedAt: '2025-03-08T02:00:00.000Z',
      createdAt: '2025-03-07T18:00:00.000Z',
    },
    club: { id: 'c-1', name: 'Club', timezone: 'Europe/Paris' },
    players: [
      { playerId: 'p-alice', name: 'Alice', games: 3 },
      { playerId: 'p-hyper', name: HYPER, games: 2 },
      { playerId: 'p-oneil', name: ONEIL, games: 1 },
    ],
    // Alice won 2000 and paid 100 rake (5 %); the house holds the rake; sum = 0.
    nets: new Map([
      ['p-alice', 1900],
      ['p-hyper', -1500],
      ['p-oneil', -500],
      [HOUSE, 100],
    ]),
    payments: [
      { id: 'pay-3', from: 'p-hyper', to: 'p-alice', amountMinor: 200, note: null, at: '2025-03-08T01:45:00.000Z' },
      { id: 'pay-1', from: 'p-hyper', to: 'p-alice', amountMinor: 1000, note: NOTE_1, at: '2025-03-08T01:00:00.000Z' },
      { id: 'pay-2', from: 'p-oneil', to: HOUSE, amountMinor: 100, note: NOTE_2, at: '2025-03-08T01:30:00.000Z' },
    ],
    asOf: '2025-03-08T01:45:00.000Z',
  };
}

describe('renderStatementCsv', () => {
  const s = buildStatement(sampleInput());
  const csv = renderStatementCsv(s, { timeZone: 'Europe/Paris' });
  const rows = parseCsv(csv);
  const byRecord = (record: string) => rows.filter((r) => r[0] === record);

  it('renders the whole statement exactly as documented', () => {
    const expected = [
      HEADER,
      'session,s-1,"Friday, ""big"" night",,,,,,,,,,,EUR,status=closed; rakePercent=5; timeZone=Europe/Paris,2025-03-08T02:45:00.000+01:00,,,,,',
      'player,p-hyper,"\'=HYPERLINK(""x"")",2,-1500,1200,0,-300,,,,,,EUR,,,-15.00,12.00,0.00,-3.00,',
      'player,p-alice,Alice,3,1900,0,1200,700,,,,,,EUR,,,19.00,0.00,12.00,7.00,',
      'player,p-oneil,"O\'Neil, ""Bo""",1,-500,100,0,-400,,,,,,EUR,,,-5.00,1.00,0.00,-4.00,',
      'house,house,House,,100,,,0,,,,,,EUR,,,1.00,,,0.00,',
      'payment,pay-1,,,,,,,p-hyper,"\'=HYPERLINK(""x"")",p-alice,Alice,1000,EUR,"cash, ""half"" now\nrest later",2025-03-08T02:00:00.000+01:00,,,,,10.00',
      'payment,pay-2,,,,,,,p-oneil,"O\'Neil, ""Bo""",house,House,100,EUR,"\'@rake, ""paid""\r\nthanks",2025-03-08T02:30:00.000+01:00,,,,,1.00',
      'payment,pay-3,,,,,,,p-hyper,"\'=HYPERLINK(""x"")",p-alice,Alice,200,EUR,,2025-03-08T02:45:00.000+01:00,,,,,2.00',
      'transfer,,,,,,,,p-oneil,"O\'Neil, ""Bo""",p-alice,Alice,400,EUR,,,,,,,4.00',
      'transfer,,,,,,,,p-hyper,"\'=HYPERLINK(""x"")",p-alice,Alice,300,EUR,,,,,,,3.00',
      'total,,,,0,,,,,,,,,EUR,,,0.00,,,,',
    ]
      .map((line) => `${line}\r\n`)
      .join('');
    expect(csv).toBe(expected);
  });

  it('has one header row and 21 fields in every row, the first 16 where they always were', () => {
    expect(rows[0]).toEqual(COLUMNS);
    expect(rows[0].slice(0, 16).join(',')).toBe('record,playerId,name,games,netMinor,paidMinor,receivedMinor,outstandingMinor,fromId,fromName,toId,toName,amountMinor,currency,note,at');
    expect(rows.filter((r) => r[0] === 'record')).toHaveLength(1);
    for (const r of rows) expect(r).toHaveLength(21);
    expect(rows.map((r) => r[0])).toEqual(['record', 'session', 'player', 'player', 'player', 'house', 'payment', 'payment', 'payment', 'transfer', 'transfer', 'total']);
  });

  it('uses CRLF line endings, a final CRLF and no BOM', () => {
    expect(csv.charCodeAt(0)).not.toBe(0xfeff);
    expect(csv.startsWith('record,')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    const structure = outsideQuotes(csv);
    expect(structure).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    expect(structure.split('\r\n')).toHaveLength(rows.length + 1);
  });

  it('puts the session id, name, status, rake, currency and asOf on the session row', () => {
    const [session] = byRecord('session');
    expect(session[col('playerId')]).toBe(s.sessionId);
    expect(session[col('name')]).toBe('Friday, "big" night');
    expect(session[col('note')]).toBe('status=closed; rakePercent=5; timeZone=Europe/Paris');
    expect(session[col('currency')]).toBe('EUR');
    expect(session[col('at')]).toBe('2025-03-08T02:45:00.000+01:00');
    expect(new Date(session[col('at')]).toISOString()).toBe(s.asOf);
  });

  it('writes times in the zone asked for, UTC by default', () => {
    const utc = parseCsv(renderStatementCsv(s));
    expect(utc[1][col('at')]).toBe('2025-03-08T01:45:00.000Z');
    expect(utc[1][col('note')]).toBe('status=closed; rakePercent=5; timeZone=UTC');
    const tokyo = parseCsv(renderStatementCsv(s, { timeZone: 'Asia/Tokyo' }));
    expect(tokyo.filter((r) => r[0] === 'payment').map((r) => r[col('at')])).toEqual(['2025-03-08T10:00:00.000+09:00', '2025-03-08T10:30:00.000+09:00', '2025-03-08T10:45:00.000+09:00']);
  });

  it('starts with a UTF-8 byte-order mark only when asked', () => {
    const withBom = renderStatementCsv(s, { timeZone: 'Europe/Paris', bom: true });
    expect(withBom.charCodeAt(0)).toBe(0xfeff);
    expect(Buffer.from(withBom, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(withBom.slice(1)).toBe(csv);
    expect(parseCsv(withBom)).toEqual(rows);
    expect(renderStatementCsv(s, { timeZone: 'Europe/Paris', bom: false })).toBe(csv);
  });

  it.each([
    ['JPY', ['500', '-500', '0']],
    ['USD', ['5.00', '-5.00', '0.00']],
    ['BHD', ['0.500', '-0.500', '0.000']],
  ])('writes %s amounts in major units with its ISO 4217 digits', (currency, [won, lost, total]) => {
    const statement = buildStatement({
      ...sampleInput(),
      session: { ...sampleInput().session, currency },
      players: [
        { playerId: 'p-a', name: 'A', games: 1 },
        { playerId: 'p-b', name: 'B', games: 1 },
      ],
      nets: new Map([
        ['p-a', 500],
        ['p-b', -500],
      ]),
      payments: [],
    });
    const out = parseCsv(renderStatementCsv(statement));
    const [a, b] = out.filter((r) => r[0] === 'player');
    expect([a[col('netMinor')], a[col('net')], a[col('outstanding')]]).toEqual(['500', won, won]);
    expect([b[col('netMinor')], b[col('net')], b[col('outstanding')]]).toEqual(['-500', lost, lost]);
    expect(out.find((r) => r[0] === 'total')?.[col('net')]).toBe(total);
    expect(out.find((r) => r[0] === 'transfer')?.[col('amount')]).toBe(won);
  });

  it("gives every player row the statement's numbers, in the statement's order", () => {
    const players = byRecord('player');
    expect(players.map((r) => r[col('playerId')])).toEqual(s.players.map((p) => p.playerId));
    s.players.forEach((p, i) => {
      const r = players[i];
      expect(unguard(r[col('name')])).toBe(p.name);
      expect(Number(r[col('games')])).toBe(p.games);
      expect(Number(r[col('netMinor')])).toBe(p.netMinor);
      expect(Number(r[col('paidMinor')])).toBe(p.paidMinor);
      expect(Number(r[col('receivedMinor')])).toBe(p.receivedMinor);
      expect(Number(r[col('outstandingMinor')])).toBe(p.outstandingMinor);
      expect(r[col('currency')]).toBe('EUR');
    });
    // And the statement's numbers are the hand-computed ones.
    const alice = players.find((r) => r[col('playerId')] === 'p-alice')!;
    expect(alice.slice(col('games'), col('outstandingMinor') + 1)).toEqual(['3', '1900', '0', '1200', '700']);
  });

  it('keeps negative amounts plain numbers (no formula prefix, no quotes)', () => {
    const hyper = byRecord('player').find((r) => r[col('playerId')] === 'p-hyper')!;
    expect(hyper[col('netMinor')]).toBe('-1500');
    expect(hyper[col('outstandingMinor')]).toBe('-300');
    expect(csv).toContain(',2,-1500,1200,0,-300,');
  });

  it('puts the house take and what it is still owed on the house row', () => {
    const [house] = byRecord('house');
    expect(house[col('playerId')]).toBe('house');
    expect(house[col('name')]).toBe('House');
    expect(Number(house[col('netMinor')])).toBe(s.houseMinor);
    expect(Number(house[col('outstandingMinor')])).toBe(s.houseOutstandingMinor);
    expect(house[col('games')]).toBe('');
  });

  it('lists the payments with their notes round-tripping exactly', () => {
    const payments = byRecord('payment');
    expect(payments.map((r) => r[col('playerId')])).toEqual(['pay-1', 'pay-2', 'pay-3']);
    expect(payments[0][col('note')]).toBe(NOTE_1);
    expect(payments[1][col('note')]).toBe(`'${NOTE_2}`);
    expect(unguard(payments[1][col('note')])).toBe(NOTE_2);
    expect(payments[2][col('note')]).toBe('');
    payments.forEach((r, i) => {
      const p = s.payments[i];
      expect([r[col('fromId')], unguard(r[col('fromName')]), r[col('toId')], unguard(r[col('toName')])]).toEqual([p.from, p.fromName, p.to, p.toName]);
      expect(Number(r[col('amountMinor')])).toBe(p.amountMinor);
      expect(new Date(r[col('at')]).toISOString()).toBe(p.at);
      expect(r[col('at')]).toMatch(/\+01:00$/);
    });
  });

  it("lists the transfers with the statement's amounts", () => {
    const transfers = byRecord('transfer');
    expect(transfers.map((r) => [r[col('fromId')], r[col('toId')], Number(r[col('amountMinor')])])).toEqual(s.transfers.map((t) => [t.from, t.to, t.amountMinor]));
    expect(transfers.map((r) => Number(r[col('amountMinor')]))).toEqual([400, 300]);
    expect(unguard(transfers[1][col('fromName')])).toBe(HYPER);
  });

  it('ends with a total row of 0', () => {
    const [total] = byRecord('total');
    expect(total[col('netMinor')]).toBe('0');
    expect(total[col('currency')]).toBe('EUR');
    expect(rows[rows.length - 1]).toBe(total);
  });

  it('prefixes text fields that a spreadsheet would run as a formula', () => {
    const hyper = byRecord('player').find((r) => r[col('playerId')] === 'p-hyper')!;
    expect(hyper[col('name')]).toBe(`'${HYPER}`);
    expect(csv).not.toMatch(/(^|,|")=HYPERLINK/m);
    expect(byRecord('player').find((r) => r[col('playerId')] === 'p-oneil')![col('name')]).toBe(ONEIL);
  });

  it('is deterministic, whatever the order of the input lists', () => {
    expect(renderStatementCsv(s, { timeZone: 'Europe/Paris' })).toBe(csv);
    const input = sampleInput();
    const reordered = buildStatement({
      ...input,
      players: [...input.players].reverse(),
      payments: [...input.payments].reverse(),
      nets: new Map([...input.nets].reverse()),
    });
    expect(renderStatementCsv(reordered, { timeZone: 'Europe/Paris' })).toBe(csv);
  });

  it('refuses an amount that is not a safe integer instead of writing it', () => {
    const bad: Statement = { ...s, totalMinor: 0.5 };
    expect(() => renderStatementCsv(bad)).toThrow(RangeError);
  });
});

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, with CRLF or LF endings', () => {
    expect(parseCsv('a,"b,c","d""e"\r\n"f\r\ng",,h\n')).toEqual([
      ['a', 'b,c', 'd"e'],
      ['f\r\ng', '', 'h'],
    ]);
    expect(parseCsv('a,b')).toEqual([['a', 'b']]);
    expect(parseCsv('a,\r\n\r\n""')).toEqual([['a', ''], [''], ['']]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\ufeffx\r\n')).toEqual([['x']]);
  });

  it('refuses malformed CSV', () => {
    expect(() => parseCsv('a"b')).toThrow(/unquoted/);
    expect(() => parseCsv('"a"b')).toThrow(/unexpected/);
    expect(() => parseCsv('"abc')).toThrow(/unterminated/);
    expect(() => parseCsv('a\rb')).toThrow(/unexpected/);
  });
});

describe('renderStatementCsv round trip (property)', () => {
  const tricky = fc.constantFrom(',', '"', '""', '\r', '\n', '\r\n', '=', '+', '-', '@', '\t', "'", ' ', '\ufeff');
  const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
  const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const text = fc.string({ unit: fc.oneof(tricky, anyCodePoint, anyCodeUnit), maxLength: 12 });
  const amount = fc.integer({ min: -1_000_000, max: 1_000_000 });

  const inputs = fc
    .record({
      sessionName: text,
      players: fc.array(fc.record({ name: text, games: fc.nat({ max: 40 }), net: amount }), {
        minLength: 1,
        maxLength: 5,
      }),
      payments: fc.array(
        fc.record({
          from: fc.nat(),
          to: fc.nat(),
          amountMinor: fc.integer({ min: 1, max: 1_000_000 }),
          note: fc.option(text, { nil: null }),
          minute: fc.nat({ max: 59 }),
        }),
        { maxLength: 5 },
      ),
    })
    .map(({ sessionName, players, payments }): StatementInput => {
      const ids = players.map((_, i) => `p${i}`);
      const parties = [...ids, HOUSE];
      const nets = new Map<string, number>(players.map((p, i) => [ids[i], p.net]));
      nets.set(HOUSE, -players.reduce((sum, p) => sum + p.net, 0));
      return {
        session: {
          id: 's-prop',
          name: sessionName,
          currency: 'USD',
          status: 'open',
          rakeBp: 250,
          startsAt: null,
          closedAt: null,
          createdAt: '2025-01-01T00:00:00.000Z',
        },
        club: { id: 'c', name: 'C', timezone: 'UTC' },
        players: players.map((p, i) => ({ playerId: ids[i], name: p.name, games: p.games })),
        nets,
        payments: payments.map((p, i) => ({
          id: `pay${i}`,
          from: parties[p.from % parties.length],
          to: parties[p.to % parties.length],
          amountMinor: p.amountMinor,
          note: p.note,
          at: `2025-01-01T20:${String(p.minute).padStart(2, '0')}:00.000Z`,
        })),
        asOf: '2025-01-01T21:00:00.000Z',
      };
    });

  it('parses back to the same field values, only the documented quote prefix added', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const s = buildStatement(input);
        const csv = renderStatementCsv(s);
        expect(renderStatementCsv(s)).toBe(csv);
        expect(csv.endsWith('\r\n')).toBe(true);
        expect(outsideQuotes(csv)).not.toMatch(/\r(?!\n)|(?<!\r)\n/);

        const rows = parseCsv(csv);
        expect(rows).toHaveLength(1 + 1 + s.players.length + 1 + s.payments.length + s.transfers.length + 1);
        expect(rows[0]).toEqual(COLUMNS);
        for (const r of rows) expect(r).toHaveLength(21);

        const text = (r: string[], column: string, value: string) => {
          expect(r[col(column)]).toBe(guarded(value));
          expect(unguard(r[col(column)])).toBe(value);
        };
        let k = 1;
        const session = rows[k++];
        expect(session[0]).toBe('session');
        text(session, 'name', s.sessionName);

        for (const p of s.players) {
          const r = rows[k++];
          expect(r[0]).toBe('player');
          text(r, 'playerId', p.playerId);
          text(r, 'name', p.name);
          expect(Number(r[col('netMinor')])).toBe(p.netMinor);
          expect(Number(r[col('outstandingMinor')])).toBe(p.outstandingMinor);
          expect(Number(r[col('paidMinor')])).toBe(p.paidMinor);
          expect(Number(r[col('receivedMinor')])).toBe(p.receivedMinor);
          expect(Number(r[col('games')])).toBe(p.games);
        }
        expect(rows[k++][0]).toBe('house');
        for (const p of s.payments) {
          const r = rows[k++];
          expect(r[0]).toBe('payment');
          text(r, 'fromName', p.fromName);
          text(r, 'toName', p.toName);
          text(r, 'note', p.note ?? '');
          expect(Number(r[col('amountMinor')])).toBe(p.amountMinor);
        }
        for (const t of s.transfers) {
          const r = rows[k++];
          expect(r[0]).toBe('transfer');
          text(r, 'fromName', t.fromName);
          text(r, 'toName', t.toName);
          expect(Number(r[col('amountMinor')])).toBe(t.amountMinor);
        }
        const total = rows[k];
        expect(total[0]).toBe('total');
        expect(total[col('netMinor')]).toBe('0');
        // Numeric cells are plain integers, never prefixed or quoted.
        for (const r of rows.slice(1)) {
          for (const c of ['games', 'netMinor', 'paidMinor', 'receivedMinor', 'outstandingMinor', 'amountMinor']) {
            expect(r[col(c)]).toMatch(/^(-?[1-9]\d*|0)?$/);
          }
          // Each major-unit cell is the same amount, exactly, with the currency's digits.
          for (const major of ['net', 'paid', 'received', 'outstanding', 'amount']) {
            const minor = r[col(`${major}Minor`)];
            if (minor === '') expect(r[col(major)]).toBe('');
            else {
              expect(r[col(major)]).toMatch(/^-?(0|[1-9]\d*)\.\d{2}$/);
              expect(BigInt(r[col(major)].replace('.', ''))).toBe(BigInt(minor));
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
