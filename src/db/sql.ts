// SQL text: the one quoting function of the app, and values written as literals.

/**
 * A string as an SQL literal. Quotes are doubled; a string with a backslash takes the
 * E'' form with backslashes doubled too, so the literal means the same whatever
 * standard_conforming_strings is. The only place the app quotes text into SQL.
 */
export function quote(text: string): string {
  const body = text.includes("'") ? text.replace(/'/g, "''") : text;
  return text.includes('\\') ? ` E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}

/** A name (role, channel) as an SQL identifier: double quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A value as an SQL literal, converted as node-postgres converts a parameter; null when
 * it cannot travel as a literal (a NUL character: the caller sends it as a parameter).
 */
export function literal(v: unknown): string | null {
  if (v === null || v === undefined) return 'NULL';
  let text: string;
  if (Buffer.isBuffer(v)) text = `\\x${v.toString('hex')}`;
  else if (typeof v === 'string') text = v;
  else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') text = String(v);
  else if (v instanceof Date) text = v.toISOString();
  else if (Array.isArray(v)) return arrayLiteral(v);
  else text = JSON.stringify(v);
  if (text.includes('\u0000')) return null;
  return quote(text);
}

/** Every value as a literal, or null when one cannot be. */
export function literals(values: readonly unknown[]): string[] | null {
  const out: string[] = [];
  for (const v of values) {
    const lit = literal(v);
    if (lit === null) return null;
    out.push(lit);
  }
  return out;
}

/** A one-dimensional array of strings or numbers as an array literal ('{"a","b"}'). */
function arrayLiteral(values: unknown[]): string | null {
  const items: string[] = [];
  for (const v of values) {
    if (v === null || v === undefined) items.push('NULL');
    else if (typeof v === 'number' || typeof v === 'bigint') items.push(String(v));
    else if (typeof v === 'string') {
      if (v.includes('\u0000')) return null;
      items.push(`"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
    } else return null;
  }
  return quote(`{${items.join(',')}}`);
}

/**
 * The statement with its placeholders ($1, $2, …) replaced by the literals, for a
 * connection that cannot keep a prepared statement (behind a transaction pooler).
 * Placeholders inside quoted text or identifiers are left alone.
 */
export function inline(text: string, lits: readonly string[]): string {
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (whole, n: string | undefined) => {
    if (n === undefined) return whole;
    const lit = lits[Number(n) - 1];
    if (lit === undefined) throw new Error(`placeholder $${n} has no value`);
    return lit;
  });
}
