import { parseCsv } from './support/csv';
import { bearer, startApp, TestApp } from './support/app';
import { double, finish, take } from './support/club';
import { pdfText } from './support/pdf-text';

/**
 * A Tokyo club whose players' names are in five scripts, settled in yen, dollars and
 * Bahraini dinars: the statements and CSV files print every name, every time in the
 * club's own zone (with its offset), every amount in major units beside the minor ones.
 *
 * Session 1 (JPY, the club's currency; starts 2026-11-06T16:00Z, the 7th in Tokyo):
 *   王小明–محمد money 500/pt: 王小明 wins single → محمد pays 500.
 *   김민준–דוד money 100/pt: דוד doubles, 김민준 takes, דוד wins a gammon → 김민준 pays 400.
 *   さくら–Zoë money 250/pt: さくら wins single → Zoë pays 250.
 *   Payment: محمد → 王小明 200, note نقدا.
 * Session 2 (USD): 王小明–דוד 1234/pt, דוד wins single → 王小明 pays 1234 (12.34).
 * Session 3 (BHD): 김민준–さくら 1500/pt, さくら wins single → 김민준 pays 1500 (1.500).
 */
describe('statements and CSV files for a club in any script, in its own time zone', () => {
  let t: TestApp;
  let h: { authorization: string };
  const ids: Record<string, string> = {};
  let s1: string, s2: string, s3: string;
  const NAMES = ['王小明', 'さくら', '김민준', 'محمد', 'דוד', 'Zoë'];

  /** Tokyo keeps +09:00 all year: an instant there, worked out without the code under test. */
  const tokyo = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().replace('Z', '+09:00');
  const tokyoStamp = (iso: string) => `${tokyo(iso).slice(0, 16).replace('T', ' ')} +09:00`;

  const get = (url: string) => t.http().get(url).set(h);
  const post = async (url: string, body: object) => {
    const res = await t.http().post(url).set(h).send(body);
    expect({ url, status: res.status, body: res.body }).toMatchObject({ status: 201 });
    return res.body as Record<string, unknown>;
  };
  const binary = (url: string, accept: string) =>
    get(url)
      .set('Accept', accept)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (x: Buffer) => chunks.push(x));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
  const money = async (sessionId: string, a: string, b: string, stakeMinor: number, actions: object[]) => {
    const table = (await post('/v1/money-games', { sessionId, players: [ids[a], ids[b]], stakeMinor, rules: { jacoby: false } })).id as string;
    await post(`/v1/money-games/${table}/games`, { actions });
  };

  beforeAll(async () => {
    t = await startApp();
    const club = await t.http().post('/v1/clubs').set('authorization', `Bearer ${t.adminToken}`).send({ name: '東京バックギャモンクラブ', currency: 'JPY', timezone: 'Asia/Tokyo' });
    expect(club.status).toBe(201);
    h = bearer(club.body.apiKey.token);
    for (const name of NAMES) ids[name] = (await post('/v1/players', { name })).id as string;
    s1 = (await post('/v1/sessions', { name: '金曜日の夜', startsAt: '2026-11-06T16:00:00Z' })).id as string;
    s2 = (await post('/v1/sessions', { name: 'Dollar night', currency: 'USD' })).id as string;
    s3 = (await post('/v1/sessions', { name: 'ليلة الدينار', currency: 'BHD' })).id as string;

    await money(s1, '王小明', 'محمد', 500, [finish(ids['王小明'])]);
    await money(s1, '김민준', 'דוד', 100, [double(ids['דוד']), take(ids['김민준']), finish(ids['דוד'], 'gammon')]);
    await money(s1, 'さくら', 'Zoë', 250, [finish(ids['さくら'])]);
    await post(`/v1/sessions/${s1}/payments`, { from: ids['محمد'], to: ids['王小明'], amountMinor: 200, note: 'نقدا' });
    await money(s2, '王小明', 'דוד', 1234, [finish(ids['דוד'])]);
    await money(s3, '김민준', 'さくら', 1500, [finish(ids['さくら'])]);
  });
  afterAll(() => t.close());

  it('keeps the JSON statement in UTC instants, with no time-zone fields (only the finished matches and the tournaments were added since)', async () => {
    const res = await get(`/v1/sessions/${s1}/settlement`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'asOf',
        'clubId',
        'clubName',
        'closedAt',
        'currency',
        'houseMinor',
        'houseOutstandingMinor',
        'matches',
        'payments',
        'players',
        'rakePercent',
        'sessionId',
        'sessionName',
        'startsAt',
        'status',
        'totalMinor',
        'tournaments',
        'transfers',
      ].sort(),
    );
    expect(res.body.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.body.payments[0].at).toMatch(/Z$/);
    expect(res.body.startsAt).toBe('2026-11-06T16:00:00.000Z');
    expect(res.body.players.map((p: { name: string; netMinor: number }) => [p.name, p.netMinor])).toEqual([
      // By name in code-unit order (Latin, Hebrew, Arabic, kana, Han, Hangul), as documented.
      ['Zoë', -250],
      ['דוד', 400],
      ['محمد', -500],
      ['さくら', 250],
      ['王小明', 500],
      ['김민준', -400],
    ]);
  });

  it('CSV: names as written, amounts in major units beside the minor ones, times in Tokyo with +09:00', async () => {
    const json = (await get(`/v1/sessions/${s1}/settlement`)).body;
    const res = await get(`/v1/sessions/${s1}/settlement`).set('Accept', 'text/csv');
    expect(res.status).toBe(200);
    expect(res.text.charCodeAt(0)).not.toBe(0xfeff);
    const [header, ...rows] = parseCsv(res.text);
    expect(header.slice(16)).toEqual(['net', 'paid', 'received', 'outstanding', 'amount']);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const session = rows.find((r) => r[0] === 'session')!;
    expect(col(session, 'name')).toBe('金曜日の夜');
    expect(col(session, 'note')).toBe('status=open; rakePercent=0; timeZone=Asia/Tokyo');
    expect(col(session, 'at')).toBe(tokyo(json.asOf));
    expect(rows.filter((r) => r[0] === 'player').map((r) => [col(r, 'name'), col(r, 'netMinor'), col(r, 'net'), col(r, 'paid'), col(r, 'received'), col(r, 'outstanding')])).toEqual([
      ['Zoë', '-250', '-250', '0', '0', '-250'],
      ['דוד', '400', '400', '0', '0', '400'],
      ['محمد', '-500', '-500', '200', '0', '-300'],
      ['さくら', '250', '250', '0', '0', '250'],
      ['王小明', '500', '500', '0', '200', '300'],
      ['김민준', '-400', '-400', '0', '0', '-400'],
    ]);
    const payment = rows.find((r) => r[0] === 'payment')!;
    expect([col(payment, 'fromName'), col(payment, 'toName'), col(payment, 'amountMinor'), col(payment, 'amount'), col(payment, 'note')]).toEqual(['محمد', '王小明', '200', '200', 'نقدا']);
    expect(col(payment, 'at')).toBe(tokyo(json.payments[0].at));
    expect(new Date(col(payment, 'at')).toISOString()).toBe(json.payments[0].at);
  });

  it('CSV: dollars with two decimals, dinars with three, exact', async () => {
    const amounts = async (sessionId: string) => {
      const [header, ...rows] = parseCsv((await get(`/v1/sessions/${sessionId}/settlement`).set('Accept', 'text/csv')).text);
      const col = (row: string[], name: string) => row[header.indexOf(name)];
      return rows.filter((r) => r[0] !== 'session').map((r) => [r[0], col(r, 'name') || col(r, 'fromName'), col(r, 'net'), col(r, 'outstanding'), col(r, 'amount')]);
    };
    expect(await amounts(s2)).toEqual([
      ['player', 'דוד', '12.34', '12.34', ''],
      ['player', '王小明', '-12.34', '-12.34', ''],
      ['house', 'House', '0.00', '0.00', ''],
      ['transfer', '王小明', '', '', '12.34'],
      ['total', '', '0.00', '', ''],
    ]);
    expect(await amounts(s3)).toEqual([
      ['player', 'さくら', '1.500', '1.500', ''],
      ['player', '김민준', '-1.500', '-1.500', ''],
      ['house', 'House', '0.000', '0.000', ''],
      ['transfer', '김민준', '', '', '1.500'],
      ['total', '', '0.000', '', ''],
    ]);
  });

  it('CSV: a UTF-8 byte-order mark with ?bom=1, and only then', async () => {
    const plain = await binary(`/v1/sessions/${s1}/settlement`, 'text/csv');
    const marked = await binary(`/v1/sessions/${s1}/settlement?bom=1`, 'text/csv');
    expect(marked.status).toBe(200);
    expect(marked.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect((marked.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect((marked.body as Buffer).subarray(3).equals(plain.body as Buffer)).toBe(true);
    expect((plain.body as Buffer)[0]).toBe('r'.charCodeAt(0));
    const zero = await binary(`/v1/sessions/${s1}/settlement?bom=0`, 'text/csv');
    expect((zero.body as Buffer).equals(plain.body as Buffer)).toBe(true);

    const games = await binary(`/v1/sessions/${s1}/games?bom=1`, 'text/csv');
    expect(games.status).toBe(200);
    expect((games.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect((games.body as Buffer).subarray(3).equals((await binary(`/v1/sessions/${s1}/games`, 'text/csv')).body as Buffer)).toBe(true);

    // JSON answers ignore it; anything but 0 or 1 is refused.
    expect((await get(`/v1/sessions/${s1}/settlement?bom=1`)).body.sessionId).toBe(s1);
    for (const url of [`/v1/sessions/${s1}/settlement?bom=yes`, `/v1/sessions/${s1}/games?bom=true`]) {
      const bad = await get(url).set('Accept', 'text/csv');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'bom', message: 'bom must be 0 or 1' }] });
    }
  });

  it("games CSV: the players' names and the games' times in Tokyo with +09:00", async () => {
    const json = (await get(`/v1/sessions/${s1}/games`)).body.items as Array<{ startedAt: string; endedAt: string }>;
    const [header, ...rows] = parseCsv((await get(`/v1/sessions/${s1}/games`).set('Accept', 'text/csv')).text);
    const col = (name: string) => rows.map((r) => r[header.indexOf(name)]);
    expect(col('players')).toEqual(['王小明 / محمد', '김민준 / דוד', 'さくら / Zoë']);
    expect(col('winners')).toEqual(['王小明', 'דוד', 'さくら']);
    expect(json.every((g) => g.startedAt.endsWith('Z'))).toBe(true);
    expect(col('startedAt')).toEqual(json.map((g) => tokyo(g.startedAt)));
    expect(col('endedAt')).toEqual(json.map((g) => tokyo(g.endedAt)));
  });

  it('PDF: every name in the text layer, times in Tokyo, subset fonts only', async () => {
    const json = (await get(`/v1/sessions/${s1}/settlement`)).body;
    const res = await binary(`/v1/sessions/${s1}/settlement`, 'application/pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.body as Buffer;
    const { pages, text } = pdfText(pdf);
    expect(pages).toBe(1);
    const page = text[0];
    expect(page).toContain('東京バックギャモンクラブ');
    expect(page).toContain('Settlement statement — 金曜日の夜');
    for (const [name, row] of [
      ['王小明', '王小明 1 500 0 200 300'],
      ['さくら', 'さくら 1 250 0 0 250'],
      ['김민준', '김민준 1 -400 0 0 -400'],
      ['محمد', 'محمد 1 -500 200 0 -300'],
      ['דוד', 'דוד 1 400 0 0 400'],
      ['Zoë', 'Zoë 1 -250 0 0 -250'],
    ]) {
      expect(page).toContain(name);
      expect(page).toContain(row);
    }
    expect(page).toContain('Date: 2026-11-07');
    expect(page).toContain('Time zone: Asia/Tokyo');
    expect(page).toContain(`As of: ${tokyoStamp(json.asOf)}`);
    expect(page).toContain(`${tokyoStamp(json.payments[0].at)} محمد → 王小明 200 نقدا`);
    // The CJK fonts alone are megabytes; only the glyphs used are embedded.
    expect(pdf.length).toBeLessThan(200 * 1024);
  });
});
