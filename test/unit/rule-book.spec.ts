import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, sourceFiles } from '../support/source-lines';

/**
 * The rule book (docs/rules.md) explains every rule the code cites: each rule id has an
 * HTML anchor `<a id="R3.4"></a>` written right before the rule, which the served page
 * (/docs/rules) and every refusal's `ruleUrl` link to.
 */
const BOOK = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8');

const RULE_ID = /\bR\d+\.\d+\b/g;
const anchorsList = [...BOOK.matchAll(/^<a id="([^"]+)"><\/a>/gm)].map((m) => m[1]);
const anchors = new Set(anchorsList);

/** The rules the book states: a bold line `**R3.4 — Title.**`, and the groups `## R3. Title`. */
const stated = [...BOOK.matchAll(/\*\*(R\d+\.\d+) — /g)].map((m) => m[1]);
const groups = [...BOOK.matchAll(/^## (R\d+)\. /gm)].map((m) => m[1]);

describe('the rule book (docs/rules.md)', () => {
  it('has an anchor for every rule id cited anywhere in src/', () => {
    const cited = new Map<string, string>();
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      for (const id of readFileSync(file, 'utf8').match(RULE_ID) ?? []) if (!cited.has(id)) cited.set(id, relative(ROOT, file));
    }
    expect(cited.size).toBeGreaterThan(0);
    const missing = [...cited].filter(([id]) => !anchors.has(id)).map(([id, file]) => `${id} (cited in ${file})`);
    expect(missing).toEqual([]);
  });

  it('has the refusals of src/domain among them', () => {
    const domain = sourceFiles(join(ROOT, 'src', 'domain')).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/rule: '(R\d+\.\d+)'|refuse\([^)]*'(R\d+\.\d+)'/g)].map((m) => m[1] ?? m[2]));
    expect(domain.length).toBeGreaterThan(0);
    expect([...new Set(domain)].filter((id) => !anchors.has(id))).toEqual([]);
  });

  it('writes each anchor once, right before the rule or group it names', () => {
    expect(anchorsList.length).toBe(anchors.size);
    expect(stated.length).toBeGreaterThan(0);
    expect(anchorsList.filter((id) => /^R\d+\.\d+$/.test(id))).toEqual(stated);
    for (const id of stated) expect(BOOK).toContain(`<a id="${id}"></a>**${id} — `);
    for (const id of groups) expect(BOOK).toMatch(new RegExp(`<a id="${id}"></a>\\n\\n## ${id}\\. `));
    expect(anchorsList.filter((id) => /^R\d+$/.test(id))).toEqual(groups);
  });

  it('numbers its groups R1, R2, … and the rules of each group 1, 2, … without a gap', () => {
    expect(groups).toEqual(groups.map((_, i) => `R${i + 1}`));
    for (const group of groups) {
      const numbers = stated.filter((id) => id.startsWith(`${group}.`)).map((id) => Number(id.slice(group.length + 1)));
      expect({ group, numbers }).toEqual({ group, numbers: numbers.map((_, i) => i + 1) });
    }
    expect(stated.every((id) => groups.includes(id.split('.')[0]))).toBe(true);
  });

  it('links only to rules it has', () => {
    const referenced = new Set([...BOOK.matchAll(/\bR\d+(?:\.\d+)?\b/g)].map((m) => m[0]));
    expect([...referenced].filter((id) => !anchors.has(id))).toEqual([]);
  });
});
