import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * Where the HTTP layer names a rule without deciding it: the database's CHECK on each
 * party's money (R6.2) refused the write, and the renderer answers it with the domain's code.
 */
const RENDERED_NOT_DECIDED = ['src/common/problem.ts'];

/** The lines outside src/domain that decide a refusal by the rules themselves. */
function refusalsOutsideDomain(): string[] {
  return sources(SRC)
    .filter((f) => !relative(SRC, f).startsWith('domain') && !RENDERED_NOT_DECIDED.includes(relative(ROOT, f)))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, where: `${relative(ROOT, f)}:${i + 1}` }))
        .filter(({ line }) => /\brefuse\(|new RuleViolation\(|\{ rule: '/.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
}

describe('refusals by the rules', () => {
  it('are decided in src/domain only: services and repositories call its functions', () => {
    expect(refusalsOutsideDomain()).toEqual([]);
  });
});
