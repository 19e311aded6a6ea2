import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PdfText {
  /** Number of pages. */
  pages: number;
  /** Text of each page: one line per baseline, items on a line joined by one space. */
  text: string[];
  /** The document information dictionary as pdf.js reads it (Title, Author, CreationDate, …). */
  info: Record<string, unknown>;
}

const SCRIPT = join(__dirname, 'pdf-text.mjs');

/**
 * The text of a PDF, extracted by pdfjs-dist in a child Node process (pdfjs is
 * ESM only and Jest runs CommonJS here).
 */
export function pdfText(pdf: Buffer): PdfText {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const out = execFileSync(process.execPath, [SCRIPT, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(out) as PdfText;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
