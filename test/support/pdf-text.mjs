// Prints the text of a PDF as JSON: { pages, text: [one string per page], info }.
// Usage: node test/support/pdf-text.mjs file.pdf   (or the PDF on stdin)
//
// Within a page, text items on the same baseline are joined with one space
// (left to right) and baselines become lines (top to bottom), so a table row
// reads as one line.
import { readFileSync } from 'node:fs';
// The legacy build: it brings its own polyfills (Promise.withResolvers and the
// like), so it runs on Node 20. pdfjs-dist stays on 5.6, the last release whose
// engines admit Node 20.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const file = process.argv[2];
const data = new Uint8Array(file && file !== '-' ? readFileSync(file) : readFileSync(0));
const task = getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 });
const pdf = await task.promise;

const text = [];
for (let n = 1; n <= pdf.numPages; n++) {
  const page = await pdf.getPage(n);
  const content = await page.getTextContent();
  const lines = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const [, , , , x, y] = item.transform;
    let line = lines.find((l) => Math.abs(l.y - y) < 1.5);
    if (!line) lines.push((line = { y, items: [] }));
    line.items.push({ x, str: item.str });
  }
  lines.sort((a, b) => b.y - a.y);
  text.push(
    lines
      .map((l) =>
        l.items
          .sort((a, b) => a.x - b.x)
          .map((i) => i.str.trim())
          .join(' '),
      )
      .join('\n'),
  );
  page.cleanup();
}
const { info } = await pdf.getMetadata();
const pages = pdf.numPages;
await task.destroy();
process.stdout.write(JSON.stringify({ pages, text, info }));
