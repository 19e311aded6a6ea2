/** Reading back the CSV the app writes (src/common/csv.ts), for the tests. */

/**
 * RFC 4180 parser: returns the records of `text`, each a list of its fields, as
 * written (quotes removed, doubled quotes undoubled; the formula `'` prefix is
 * NOT removed).
 *
 * - Records end with CRLF or LF; the line ending after the last record is
 *   optional. An empty line in the middle is a record with one empty field.
 * - A quoted field may contain `,`, `""` (one `"`), CR and LF, kept exactly.
 * - A leading byte-order mark (U+FEFF) is ignored. Empty text has no records.
 * - Malformed text is refused with an Error giving the offset: a `"` inside an
 *   unquoted field, anything but `,` or a line ending after a closing quote, an
 *   unterminated quoted field, or a CR that is not part of CRLF outside quotes.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (i >= n) return records;
  let record: string[] = [];
  for (;;) {
    // At the start of a field.
    let field: string;
    if (text[i] === '"') {
      const open = i;
      let j = i + 1;
      field = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) throw new Error(`CSV: unterminated quoted field starting at offset ${open}`);
        field += text.slice(j, q);
        if (text[q + 1] === '"') {
          field += '"';
          j = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      let j = i;
      while (j < n) {
        const c = text[j];
        if (c === ',' || c === '\n' || c === '\r') break;
        if (c === '"') throw new Error(`CSV: unexpected '"' inside an unquoted field at offset ${j}`);
        j++;
      }
      field = text.slice(i, j);
      i = j;
    }
    record.push(field);

    // After a field: end of text, a separator or a line ending.
    if (i >= n) {
      records.push(record);
      return records;
    }
    const c = text[i];
    if (c === ',') {
      i++;
      continue;
    }
    if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      i += c === '\n' ? 1 : 2;
      records.push(record);
      record = [];
      if (i >= n) return records;
      continue;
    }
    throw new Error(`CSV: unexpected ${JSON.stringify(c)} at offset ${i} (expected ',' or a line ending)`);
  }
}
