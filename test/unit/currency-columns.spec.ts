import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cols } from '../../src/db/decode';

// Currencies are CHAR(3) columns: PostgreSQL pads a shorter value with spaces, and the
// padding must never reach an answer. The decoders trim it in one place, Columns.currency.
describe('currency columns', () => {
  it('are read trimmed, null kept as null', () => {
    expect(cols({ currency: 'EUR' }).currency('currency')).toBe('EUR');
    expect(cols({ currency: 'EU ' }).currency('currency')).toBe('EU');
    expect(cols({ currency: 'EU ' }).currencyOrNull('currency')).toBe('EU');
    expect(cols({ currency: null }).currencyOrNull('currency')).toBeNull();
    expect(() => cols({ currency: 3 }).currency('currency')).toThrow('column currency: expected text');
  });

  it('are decoded by Columns.currency everywhere in src (no decoder of its own that keeps the padding)', () => {
    const src = join(__dirname, '..', '..', 'src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    const plain = /\.(text|textOrNull)\(\s*'currency'\s*\)/;
    const offenders = files.filter((f) => plain.test(readFileSync(join(src, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
