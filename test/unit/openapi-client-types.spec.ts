import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('the typed client (openapi/schema.d.ts)', () => {
  it('is committed exactly as openapi-typescript generates it from the committed document (run `npm run client`)', () => {
    // `npm run client:check` regenerates in memory with the very options of `npm run client`
    // and exits non-zero, saying so, when the committed file differs.
    let out: string;
    try {
      out = execFileSync('npm', ['run', '-s', 'client:check'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      const { stdout, stderr } = e as { stdout?: string; stderr?: string };
      throw new Error(`openapi/schema.d.ts is stale: run \`npm run client\` and commit it.\n${stdout ?? ''}${stderr ?? ''}`, { cause: e });
    }
    expect(out).not.toMatch(/not up-to-date/i);
  });

  it('types every operation of the document', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'openapi', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
    const types = readFileSync(join(ROOT, 'openapi', 'schema.d.ts'), 'utf8');
    const missing = Object.values(doc.paths)
      .flatMap((item) => Object.values(item).map((op) => op.operationId))
      .filter((id) => !types.includes(`${JSON.stringify(id)}: {`) && !types.includes(`    ${id}: {`));
    expect(missing).toEqual([]);
  });
});
