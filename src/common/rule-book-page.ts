import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { marked } from 'marked';

const SOURCE = join('docs', 'rules.md');

/**
 * docs/rules.md in the project root: the nearest folder above this module that holds it
 * (src/common when run from the sources, dist/src/common when built).
 */
export function ruleBookFile(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, SOURCE);
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) throw new Error(`${SOURCE} was not found above ${from}`);
  }
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}' +
  'code{background:#f3f3f3;padding:0 .2em;border-radius:3px}h2{border-bottom:1px solid #ddd;margin-top:2.5rem}' +
  'p>a[id]:first-child{scroll-margin-top:1rem}:target+strong{background:#ffec99}';

/** The rule book as a whole HTML page; the Markdown's HTML anchors are kept as they are. */
export function renderRuleBook(markdown: string = readFileSync(ruleBookFile(), 'utf8')): string {
  const body = marked.parse(markdown, { async: false, gfm: true });
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Club rule book</title><style>${STYLE}</style></head>\n<body>\n${body}</body></html>\n`
  );
}
