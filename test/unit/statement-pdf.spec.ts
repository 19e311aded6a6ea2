import { HOUSE } from '../../src/domain/settlement';
import { buildStatement, Statement, StatementInput } from '../../src/domain/statement';
import { currencyMinorDigits as currencyDigits } from '../../src/domain/currency';
import { formatMinor, renderStatementPdf } from '../../src/settlement/statement-pdf';
import { pdfText } from '../support/pdf-text';

const SESSION = {
  id: '5d3c1e0a-8a2b-4c8e-9a51-0d6f3b2a7c10',
  name: 'Friday chouette night',
  currency: 'USD',
  status: 'closed' as const,
  rakeBp: 500,
  startsAt: '2025-03-14T18:30:00.000Z',
  closedAt: '2025-03-15T01:10:00.000Z',
  createdAt: '2025-03-10T09:00:00.000Z',
};
const CLUB = { id: '0b9e7f52-1c4d-4f0a-8e36-2a1d5c7b9e44', name: 'Kraków Backgammon Club', timezone: 'Europe/Warsaw' };
const AS_OF = '2025-03-15T00:58:12.345Z';

/** Twelve players: name, games, net in cents. The nets sum to −12.50; the house took 12.50. */
const TWELVE: Array<[string, number, number]> = [
  ['Aïsha Benali', 9, 5025],
  ['Bob Stone', 7, -1250],
  ['Carlos Ortega', 11, 3000],
  ['Дмитрий Соколов', 8, -2775],
  ['Ελένη Παπαδοπούλου', 10, -4500],
  ['Frank Fischer', 3, 0],
  ['Grete Müller', 6, 1200],
  ['Hiro Tanaka', 5, -300],
  ['Łukasz Wiśniewski', 12, 2250],
  ['Mia Rossi', 4, -900],
  ['Noah Levi', 9, 1775],
  ['Olga Nowak', 8, -4775],
];
const HOUSE_RAKE = 1250;

function input(players: Array<[string, number, number]>, houseMinor: number): StatementInput {
  const ids = players.map((_, i) => `p${String(i + 1).padStart(3, '0')}`);
  return {
    session: SESSION,
    club: CLUB,
    players: players.map(([name, games], i) => ({ playerId: ids[i], name, games })),
    nets: new Map<string, number>([...players.map(([, , net], i): [string, number] => [ids[i], net]), [HOUSE, houseMinor]]),
    payments: [],
    asOf: AS_OF,
  };
}

function twelve(): Statement {
  const base = input(TWELVE, HOUSE_RAKE);
  return buildStatement({
    ...base,
    payments: [
      // Ελένη → Aïsha, cash at the table; Olga settles part of her debt with the house.
      { id: 'pay-1', from: 'p005', to: 'p001', amountMinor: 2000, note: 'cash at the table', at: '2025-03-14T23:40:00.000Z' },
      { id: 'pay-2', from: 'p012', to: HOUSE, amountMinor: 500, note: null, at: '2025-03-15T00:58:12.345Z' },
    ],
  });
}

describe('formatMinor', () => {
  it('formats minor units with the currency digits, exactly', () => {
    expect(formatMinor(1500, currencyDigits('USD'))).toBe('15.00');
    expect(formatMinor(-5, currencyDigits('USD'))).toBe('-0.05');
    expect(formatMinor(0, 2)).toBe('0.00');
    expect(formatMinor(-1250, 2)).toBe('-12.50');
    expect(formatMinor(123456789, 2)).toBe('1,234,567.89');
    expect(formatMinor(1500, currencyDigits('JPY'))).toBe('1,500');
    expect(formatMinor(-999, 0)).toBe('-999');
    expect(formatMinor(1234, currencyDigits('BHD'))).toBe('1.234');
    expect(formatMinor(Number.MAX_SAFE_INTEGER, 2)).toBe('90,071,992,547,409.91');
    expect(formatMinor(-Number.MAX_SAFE_INTEGER, 2)).toBe('-90,071,992,547,409.91');
    expect(() => formatMinor(0.5, 2)).toThrow(RangeError);
  });
});

describe('renderStatementPdf', () => {
  it('renders twelve players, their payments and transfers on one A4 page', async () => {
    const s = twelve();
    expect(s.totalMinor).toBe(0);
    expect(s.transfers.length).toBeGreaterThan(5);
    const pdf = await renderStatementPdf(s);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { pages, text, info } = pdfText(pdf);
    expect(pages).toBe(1);
    const page = text[0];
    expect(page).toContain('Kraków Backgammon Club');
    expect(page).toContain('Friday chouette night');
    expect(page).toContain('Date: 2025-03-14');
    expect(page).toContain('Status: closed');
    expect(page).toContain('Currency: USD');
    expect(page).toContain('Rake: 5 %');
    expect(page).toContain('As of: 2025-03-15 00:58 UTC');
    expect(page).toContain('Time zone: UTC');
    expect(page).toContain('Rake taken: 12.50 USD');

    const nets: Record<string, string> = {
      'Aïsha Benali': '50.25',
      'Bob Stone': '-12.50',
      'Carlos Ortega': '30.00',
      'Дмитрий Соколов': '-27.75',
      'Ελένη Παπαδοπούλου': '-45.00',
      'Frank Fischer': '0.00',
      'Grete Müller': '12.00',
      'Hiro Tanaka': '-3.00',
      'Łukasz Wiśniewski': '22.50',
      'Mia Rossi': '-9.00',
      'Noah Levi': '17.75',
      'Olga Nowak': '-47.75',
    };
    for (const p of s.players) {
      // One row per player: name, games, net, paid, received, outstanding.
      const row = [p.name, String(p.games), nets[p.name], ...[p.paidMinor, p.receivedMinor, p.outstandingMinor].map((m) => formatMinor(m, 2))];
      expect(page).toContain(row.join(' '));
    }
    expect(page).toContain('Ελένη Παπαδοπούλου 10 -45.00 20.00 0.00 -25.00');
    expect(page).toContain('Aïsha Benali 9 50.25 0.00 20.00 30.25');
    expect(page).toContain('House (rake) 12.50 0.00 5.00 7.50');
    expect(page).toContain('Total 0.00 25.00 25.00 0.00');

    expect(page).toContain('2025-03-14 23:40 Ελένη Παπαδοπούλου → Aïsha Benali 20.00 cash at the table');
    expect(page).toContain('2025-03-15 00:58 Olga Nowak → House 5.00');

    for (const t of s.transfers) {
      expect(page).toContain(`${t.fromName} pays ${t.toName} ${formatMinor(t.amountMinor, 2)}`);
    }
    expect(page).toContain('Page 1 of 1');

    expect(info).toMatchObject({
      Title: 'Kraków Backgammon Club — Friday chouette night — settlement statement',
      Author: 'Kraków Backgammon Club',
      Creator: 'backgammon-club-scorekeeping',
      CreationDate: 'D:20250315005812Z',
      ModDate: 'D:20250315005812Z',
    });
  });

  it('still fits one page with twelve players, six payments and twelve transfers', async () => {
    const s = twelve();
    const [a, b] = s.players;
    const payments = Array.from({ length: 6 }, (_, i) => ({
      id: `pay-${i}`,
      from: a.playerId,
      to: b.playerId,
      fromName: a.name,
      toName: b.name,
      amountMinor: 100 * (i + 1),
      note: 'a rather long note about how this was paid, which cannot fit its column',
      at: `2025-03-14T1${i}:00:00.000Z`,
    }));
    const transfers = s.players.map((p, i) => ({
      from: p.playerId,
      to: HOUSE,
      fromName: p.name,
      toName: 'House',
      amountMinor: 1000 + i,
    }));
    const { pages, text } = pdfText(await renderStatementPdf({ ...s, payments, transfers }));
    expect(pages).toBe(1);
    expect(text[0]).toContain('Payments (6)');
    expect(text[0]).toContain('Transfers to settle (12)');
    expect(text[0]).toContain('Дмитрий Соколов pays House 10.11');
    expect(text[0]).toContain('2025-03-14 15:00 Aïsha Benali → Bob Stone 6.00 a rather long note');
  });

  it('is deterministic: the same statement gives the same bytes', async () => {
    const a = await renderStatementPdf(twelve());
    const b = await renderStatementPdf(twelve());
    expect(a.equals(b)).toBe(true);
  });

  it('flows forty players onto more pages and prints every name', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `Player ${String(i + 1).padStart(2, '0')} ${['Ζωή', 'Јован', 'Zoë', 'Øystein'][i % 4]}`);
    // Alternating wins and losses that, with a 4.00 rake, sum to zero.
    const players = names.map((name, i): [string, number, number] => [name, i % 7, i % 2 === 0 ? 1000 + i * 10 : -(1000 + (i - 1) * 10) - (i === 39 ? 400 : 0)]);
    const s = buildStatement(input(players, 400));
    expect(s.totalMinor).toBe(0);
    const pdf = await renderStatementPdf(s);
    const { pages, text } = pdfText(pdf);
    expect(pages).toBeGreaterThan(1);
    const all = text.join('\n');
    for (const name of names) expect(all).toContain(name);
    for (const t of s.transfers) expect(all).toContain(`${t.fromName} pays ${t.toName} ${formatMinor(t.amountMinor, 2)}`);
    expect(text[0]).toContain(`Page 1 of ${pages}`);
    expect(text[pages - 1]).toContain(`Page ${pages} of ${pages}`);
  });

  it('repeats the header of a table that continues on the next page', async () => {
    const players = Array.from({ length: 70 }, (_, i): [string, number, number] => [`Player ${String(i + 1).padStart(2, '0')}`, 1, i % 2 === 0 ? 500 : -500]);
    const s = buildStatement(input(players, 0));
    const { pages, text } = pdfText(await renderStatementPdf(s));
    expect(pages).toBeGreaterThanOrEqual(2);
    const header = 'Player Games Net Paid Received Outstanding';
    expect(text[0]).toContain(header);
    expect(text[1]).toContain(header);
    expect(text[1].indexOf(header)).toBeLessThan(text[1].indexOf('Player 70 1 -5.00'));
    // Every row is printed once, whole, on one page or the other.
    for (const [name] of players) {
      const rows = text.flatMap((p) => p.split('\n')).filter((line) => line.startsWith(`${name} 1 `));
      expect(rows).toHaveLength(1);
    }
  });

  it('keeps long names and big amounts inside their columns', async () => {
    const long = 'Maximilian Alexander Konstantin von Hohenzollern-Sigmaringen der Dritte';
    const s = buildStatement({
      ...input(
        [
          [long, 1, -400_000_000_000_000],
          ['Zoë', 1, 400_000_000_000_000],
        ],
        0,
      ),
      session: { ...SESSION, currency: 'JPY', startsAt: null, status: 'open', rakeBp: 0 },
    });
    const { pages, text } = pdfText(await renderStatementPdf(s));
    expect(pages).toBe(1);
    expect(text[0]).not.toContain(long);
    expect(text[0]).toMatch(/Maximilian Alexander[^\n]*… 1 -400,000,000,000,000 0 0 -400,000,000,000,000/);
    expect(text[0]).toMatch(/Maximilian[^\n]*… pays Zoë 400,000,000,000,000/);
    expect(text[0]).toContain('Date: 2025-03-15');
    expect(text[0]).toContain('Status: open');
    expect(text[0]).toContain('No payments recorded.');
  });
  it('R6.2: prints column totals past 2^53 − 1 exactly (each party within the bound, their sum beyond it)', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const s = buildStatement({
      ...input(
        [
          ['Anna', 0, 0],
          ['Ben', 0, 0],
          ['Cleo', 0, 0],
          ['Dan', 0, 0],
        ],
        0,
      ),
      payments: [
        { id: 'pay-1', from: 'p001', to: 'p002', amountMinor: max, note: null, at: '2025-03-14T23:40:00.000Z' },
        { id: 'pay-2', from: 'p003', to: 'p004', amountMinor: max, note: null, at: '2025-03-14T23:41:00.000Z' },
      ],
    });
    const { text } = pdfText(await renderStatementPdf(s));
    // Paid and received: 2 × 9007199254740991 = 18014398509481982 cents; outstanding: 0.
    expect(text[0]).toMatch(/Total 0\.00 180,143,985,094,819\.82 180,143,985,094,819\.82 0\.00/);
  });
});

describe('renderStatementPdf: names in every script', () => {
  const NAMES: Array<[string, number, number]> = [
    ['王小明', 3, 1500],
    ['さくら', 2, -700],
    ['김민준', 4, 900],
    ['محمد', 1, -1200],
    ['דוד', 2, 300],
    ['Zoë Walker', 1, -800],
  ];

  function multiScript(): Statement {
    const base = input(NAMES, 0);
    return buildStatement({
      ...base,
      club: { ...CLUB, name: '東京バックギャモンクラブ', timezone: 'Asia/Tokyo' },
      session: { ...SESSION, name: 'Friday night — ليلة الجمعة', currency: 'JPY' },
      payments: [{ id: 'pay-1', from: 'p002', to: 'p001', amountMinor: 700, note: 'نقدا', at: '2025-03-14T14:40:00.000Z' }],
    });
  }

  it('prints Chinese, Japanese, Korean, Arabic and Hebrew names into the text layer, with subset fonts', async () => {
    const s = multiScript();
    expect(s.totalMinor).toBe(0);
    const pdf = await renderStatementPdf(s, { timeZone: 'Asia/Tokyo' });
    const { pages, text } = pdfText(pdf);
    expect(pages).toBe(1);
    const page = text[0];
    expect(page).toContain('東京バックギャモンクラブ');
    expect(page).toContain('ليلة الجمعة');
    // One row per player, the name as written (logical order), then its figures.
    expect(page).toContain('王小明 3 1,500 0 700 800');
    expect(page).toContain('さくら 2 -700 700 0 0');
    expect(page).toContain('김민준 4 900 0 0 900');
    expect(page).toContain('محمد 1 -1,200 0 0 -1,200');
    expect(page).toContain('דוד 2 300 0 0 300');
    expect(page).toContain('Zoë Walker 1 -800 0 0 -800');
    expect(page).toContain('さくら → 王小明 700 نقدا');
    // Only the glyphs used are embedded: the CJK fonts alone are megabytes.
    expect(pdf.length).toBeLessThan(200 * 1024);
  });

  it('is deterministic whatever was printed before it in the process', async () => {
    const s = multiScript();
    const first = await renderStatementPdf(s, { timeZone: 'Asia/Tokyo' });
    await renderStatementPdf(buildStatement(input([['뷁 齉 ㈜ 𠮷 ﷺ', 1, 0]], 0)), { timeZone: 'UTC' });
    await renderStatementPdf(twelve());
    expect((await renderStatementPdf(s, { timeZone: 'Asia/Tokyo' })).equals(first)).toBe(true);
  });

  it('writes a right-to-left name after Latin text in visual order, and reads back in logical order', async () => {
    const s = buildStatement(input([['Noah דוד Levi', 1, 0]], 0));
    const { text } = pdfText(await renderStatementPdf(s));
    expect(text[0]).toContain('Noah דוד Levi 1 0.00');
  });
});

describe('renderStatementPdf: times in the club time zone', () => {
  it('prints the date, the payments and "as of" in Tokyo time with the offset, and names the zone', async () => {
    const s = twelve();
    const { text } = pdfText(await renderStatementPdf(s, { timeZone: 'Asia/Tokyo' }));
    const page = text[0];
    // startsAt 2025-03-14T18:30Z is the 15th in Tokyo; asOf 00:58Z is 09:58 there.
    expect(page).toContain('Date: 2025-03-15');
    expect(page).toContain('As of: 2025-03-15 09:58 +09:00');
    expect(page).toContain('Time zone: Asia/Tokyo');
    expect(page).toContain('2025-03-15 08:40 +09:00 Ελένη Παπαδοπούλου → Aïsha Benali 20.00 cash at the');
    expect(page).toContain('2025-03-15 09:58 +09:00 Olga Nowak → House 5.00');
    expect(page).toContain('settlement statement as of 2025-03-15 09:58 +09:00');
    expect(page).not.toContain('UTC');
  });

  it('gives each payment its own offset across a daylight saving change (New York)', async () => {
    const s = buildStatement({
      ...input(
        [
          ['Ann', 1, 0],
          ['Ben', 1, 0],
        ],
        0,
      ),
      session: { ...SESSION, startsAt: '2025-03-09T03:00:00.000Z' },
      payments: [
        { id: 'pay-1', from: 'p001', to: 'p002', amountMinor: 100, note: null, at: '2025-03-09T06:30:00.000Z' },
        { id: 'pay-2', from: 'p002', to: 'p001', amountMinor: 100, note: null, at: '2025-03-09T07:30:00.000Z' },
      ],
      asOf: '2025-03-09T07:30:00.000Z',
    });
    const { text } = pdfText(await renderStatementPdf(s, { timeZone: 'America/New_York' }));
    expect(text[0]).toContain('Date: 2025-03-08');
    expect(text[0]).toContain('2025-03-09 01:30 -05:00 Ann → Ben 1.00');
    expect(text[0]).toContain('2025-03-09 03:30 -04:00 Ben → Ann 1.00');
    expect(text[0]).toContain('As of: 2025-03-09 03:30 -04:00');
    expect(text[0]).toContain('Time zone: America/New_York');
  });
});
