import { startApp, TestApp } from './support/app';
import { clubWith } from './support/club';

/** The rule book served at /docs/rules, and the `ruleUrl` of every refusal linking into it. */
describe('the rule book at /docs/rules', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const page = async () => {
    const res = await t.http().get('/docs/rules');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    return res.text;
  };

  it('is served as HTML without a token, with an anchor for each rule', async () => {
    const html = await page();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('id="R3.4"');
    expect(html).toContain('id="R8.10"');
    expect(html).not.toContain('**R3.4');
  });

  it("a refusal's ruleUrl points at an anchor of that page (R3.1)", async () => {
    const c = await clubWith(t, ['Anna', 'Ben']);
    const res = await c.post('/v1/matches', { sides: [[c.ids.Anna], [c.ids.Ben]], target: 4 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'TARGET_EVEN', rule: 'R3.1', ruleUrl: '/docs/rules#R3.1' });
    const [path, anchor] = (res.body.ruleUrl as string).split('#');
    expect(path).toBe('/docs/rules');
    expect(await page()).toContain(`id="${anchor}"`);
  });

  it('answers problems without a rule without ruleUrl', async () => {
    const res = await t.http().get('/v1/no-such-route');
    expect(res.body.rule).toBeUndefined();
    expect(res.body).not.toHaveProperty('ruleUrl');
  });
});
