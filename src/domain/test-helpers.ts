/**
 * Helpers shared by the domain's *.spec.ts files (not used by production code, and left
 * out of the build by tsconfig.build.json). They stay beside the specs, which may import
 * only src/domain.
 */
import type { DomainErrorCode } from './error-codes';
import { RuleViolation } from './errors';

/** Runs `fn`, expects a RuleViolation with this code and rule id, and returns it. */
export function expectRefusal(fn: () => unknown, code: DomainErrorCode, rule: string | null): RuleViolation {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof RuleViolation)) {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever was thrown, as String() shows it
    throw new Error(`expected RuleViolation ${code} (${String(rule)}), got ${caught === undefined ? 'no error' : String(caught)}`);
  }
  expect({ code: caught.code, rule: caught.rule }).toEqual({ code, rule });
  return caught;
}
