import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root: where each line found is named from. */
export const ROOT = join(__dirname, '..', '..');

/** Every .ts file under `dir`, recursively; `specs: false` leaves the unit tests beside the code out. */
export function sourceFiles(dir: string, { specs = true }: { specs?: boolean } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path, { specs });
    return e.name.endsWith('.ts') && (specs || !e.name.endsWith('.spec.ts')) ? [path] : [];
  });
}

const isCommentLine = (line: string) => line.startsWith('//') || line.startsWith('*') || line.startsWith('/*');

/**
 * The lines of the files that pass `test`, as `path:line: text` (trimmed). Comment lines
 * are left out unless `comments` is set: the checks are about code, except those that
 * forbid a name anywhere.
 */
export function matching(files: string[], test: (line: string) => boolean, { comments = false }: { comments?: boolean } = {}): string[] {
  return files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .map((line, i) => ({ line: line.trim(), where: `${relative(ROOT, f)}:${i + 1}` }))
      .filter(({ line }) => (comments || !isCommentLine(line)) && test(line))
      .map(({ where, line }) => `${where}: ${line}`),
  );
}
