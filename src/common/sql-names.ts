// Names and log labels of SQL statements: shared by the database client (src/db) and the
// log serializer (logging.ts), which may say what a statement does but never its values.
import { createHash } from 'node:crypto';

/** Statement names per prefix, keyed by the SQL text itself (its hash is computed once per string). */
const names = new Map<string, Map<string, string>>();

/** A stable statement name per SQL text. */
export function nameOf(text: string, prefix: string): string {
  let byText = names.get(prefix);
  if (!byText) names.set(prefix, (byText = new Map<string, string>()));
  let name = byText.get(text);
  if (!name) {
    name = `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (byText.size < 5000) byText.set(text, name);
  }
  return name;
}

/**
 * What a log may say of a statement: what it does to which tables ("INSERT players,
 * INSERT audit_log", "SELECT game_tables"), read from its text with any quoted literal
 * removed first, so that no value can come through.
 */
export function statementLabel(text: string): string {
  const sql = text.replace(/'(?:[^']|'')*'/g, "''");
  const parts: string[] = [];
  const add = (part: string) => {
    if (!parts.includes(part) && parts.length < 6) parts.push(part);
  };
  for (const m of sql.matchAll(/\b(INSERT\s+INTO|(?<!\b(?:DO|FOR|KEY)\s+)UPDATE|DELETE\s+FROM)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi)) {
    add(`${m[1].split(/\s+/)[0].toUpperCase()} ${m[2]}`);
  }
  if (parts.length === 0) {
    const verb = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? '?';
    const from = /\bFROM\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i.exec(sql)?.[1];
    add(from ? `${verb} ${from}` : verb);
  }
  return parts.join(', ');
}
