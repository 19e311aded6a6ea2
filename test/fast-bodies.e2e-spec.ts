import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The hot bodies' own checks run in the built app, whose Nest packages load as ES modules
// (which Jest's module loader does not take), so the comparison runs in a Node of its own.
describe("the hot bodies' own checks accept only what class-validator accepts, and build the same instance", () => {
  it('on 6,000 generated game bodies and as many actions: no body accepted that the full pipeline refuses, no instance that differs', () => {
    const out = execFileSync(process.execPath, [join(__dirname, 'support', 'fast-bodies-check.mjs'), '6000'], { encoding: 'utf8', timeout: 60000 });
    const { counts, failures, failureCount } = JSON.parse(out.trim().split('\n').pop() as string) as {
      counts: Record<string, number>;
      failures: unknown[];
      failureCount: number;
    };
    expect({ failureCount, failures }).toEqual({ failureCount: 0, failures: [] });
    // Valid bodies are common among the generated ones, and the checks take most of them themselves (else they buy nothing).
    expect(counts.bodiesValid).toBeGreaterThan(300);
    expect(counts.bodiesFast).toBeGreaterThan(counts.bodiesValid * 0.8);
    expect(counts.actionsFast).toBeGreaterThan(counts.actionsValid * 0.8);
  });
});
