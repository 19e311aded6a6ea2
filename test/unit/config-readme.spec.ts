import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FIELDS, configTable } from '../../src/config-fields';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The README's configuration table: from its header row to the first blank line. */
function readmeTable(): string {
  const start = readme.indexOf('| Variable | Default | Meaning |');
  if (start < 0) return '';
  const end = readme.indexOf('\n\n', start);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe("the README's configuration table", () => {
  it('is the one src/config-fields.ts describes, row for row (regenerate it with configTable())', () => {
    expect(readmeTable()).toBe(configTable());
  });

  it('gives every integer field a default within its bounds', () => {
    const wrong = Object.entries(CONFIG_FIELDS).filter(([, f]) => f.type === 'integer' && 'default' in f && !(typeof f.default === 'number' && f.default >= f.min && f.default <= f.max));
    expect(wrong).toEqual([]);
  });
});
