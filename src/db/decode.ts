// Row decoders: a database row read into a typed value, every column checked, instead of
// `row.col as T`. A row that does not fit is a schema/code mismatch: RowDecodeError (500).

/** A row as node-postgres hands it over. */
export type Row = Readonly<Record<string, unknown>>;

/** Turns one row into a value. */
export type Decoder<T> = (row: Row) => T;

export class RowDecodeError extends Error {
  constructor(column: string, expected: string, got: unknown) {
    super(`column ${column}: expected ${expected}, got ${got === null ? 'null' : typeof got}`);
    this.name = 'RowDecodeError';
  }
}

/**
 * Typed access to the columns of one row: `cols(row).text('name')`. Each getter checks
 * the column's JS type as node-postgres returns it (and as row_to_json returns it:
 * timestamps as text, bigint as number) and throws RowDecodeError otherwise.
 */
export class Columns {
  constructor(private readonly row: Row) {}

  private get(name: string): unknown {
    return this.row[name];
  }

  text(name: string): string {
    const v = this.get(name);
    if (typeof v !== 'string') throw new RowDecodeError(name, 'text', v);
    return v;
  }

  textOrNull(name: string): string | null {
    const v = this.get(name);
    return v === null || v === undefined ? null : this.text(name);
  }

  /** A currency code: a CHAR(3) column, which PostgreSQL pads with spaces, trimmed (the one place that trims it). */
  currency(name: string): string {
    return this.text(name).trim();
  }

  currencyOrNull(name: string): string | null {
    const v = this.get(name);
    return v === null || v === undefined ? null : this.currency(name);
  }

  /** A text column restricted to known values (a status, a kind). */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T {
    const v = this.text(name);
    if (!(allowed as readonly string[]).includes(v)) throw new RowDecodeError(name, allowed.join('|'), v);
    return v as T;
  }

  int(name: string): number {
    const v = this.get(name);
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    // count(*) and bigint arrive as text from node-postgres.
    if (typeof v === 'string' && /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
    throw new RowDecodeError(name, 'integer', v);
  }

  intOrNull(name: string): number | null {
    const v = this.get(name);
    return v === null || v === undefined ? null : this.int(name);
  }

  /**
   * A DOUBLE PRECISION column: the number node-postgres parses, or the column selected as
   * text (`col::text`, its shortest exact form), read back into the same double.
   */
  float(name: string): number {
    const v = this.get(name);
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw new RowDecodeError(name, 'double precision', v);
    return n;
  }

  /** A BIGINT kept as its decimal text (money: never a float on the way). */
  bigintText(name: string): string {
    const v = this.get(name);
    if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
    throw new RowDecodeError(name, 'bigint', v);
  }

  bigintTextOrNull(name: string): string | null {
    const v = this.get(name);
    return v === null || v === undefined ? null : this.bigintText(name);
  }

  bool(name: string): boolean {
    const v = this.get(name);
    if (typeof v !== 'boolean') throw new RowDecodeError(name, 'boolean', v);
    return v;
  }

  /** A timestamp: a Date from node-postgres, text from row_to_json. */
  date(name: string): Date {
    const v = this.get(name);
    if (v instanceof Date) return v;
    if (typeof v === 'string') {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime())) return d;
    }
    throw new RowDecodeError(name, 'timestamp', v);
  }

  dateOrNull(name: string): Date | null {
    const v = this.get(name);
    return v === null || v === undefined ? null : this.date(name);
  }

  bytes(name: string): Buffer {
    const v = this.get(name);
    if (!Buffer.isBuffer(v)) throw new RowDecodeError(name, 'bytea', v);
    return v;
  }

  /** A uuid[] or text[] column (node-postgres leaves uuid[] as its text form `{a,b}`). */
  textArray(name: string): string[] {
    const v = this.get(name);
    if (Array.isArray(v) && v.every((x): x is string => typeof x === 'string')) return v;
    if (typeof v === 'string' && v.startsWith('{') && v.endsWith('}')) return v === '{}' ? [] : v.slice(1, -1).split(',');
    throw new RowDecodeError(name, 'array of text', v);
  }

  /** A json/jsonb column, undecoded: the caller decodes its shape. */
  json(name: string): unknown {
    const v = this.get(name);
    if (v === undefined) throw new RowDecodeError(name, 'json', v);
    return v;
  }

  /** A json/jsonb column that holds an object or null. */
  objectOrNull(name: string): Record<string, unknown> | null {
    const v = this.get(name);
    if (v === null || v === undefined) return null;
    if (typeof v !== 'object' || Array.isArray(v)) throw new RowDecodeError(name, 'json object', v);
    return v as Record<string, unknown>;
  }

  /** A nested row (row_to_json), decoded by `decode`, or null. */
  nested<T>(name: string, decode: Decoder<T>): T | null {
    const v = this.get(name);
    if (v === null || v === undefined) return null;
    if (typeof v !== 'object' || Array.isArray(v)) throw new RowDecodeError(name, 'row', v);
    return decode(v as Row);
  }
}

export const cols = (row: Row) => new Columns(row);

/** Decoders for the one-column rows that come up everywhere. */
export const decode = {
  text:
    (name: string): Decoder<string> =>
    (r) =>
      cols(r).text(name),
  int:
    (name: string): Decoder<number> =>
    (r) =>
      cols(r).int(name),
  intOrNull:
    (name: string): Decoder<number | null> =>
    (r) =>
      cols(r).intOrNull(name),
  bool:
    (name: string): Decoder<boolean> =>
    (r) =>
      cols(r).bool(name),
};
