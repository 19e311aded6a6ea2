import type { DomainErrorCode } from './error-codes';

/**
 * A refusal by the rules. The domain throws it; the HTTP layer renders it as
 * problem+json, status 422, with `code` and `rule`. `code` is one of
 * DOMAIN_ERROR_CODES (src/domain/error-codes.ts); `rule` is the rule book id (docs/rules.md) (e.g. "R3.4").
 */
export class RuleViolation extends Error {
  constructor(
    public readonly code: DomainErrorCode,
    public readonly rule: string | null,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RuleViolation';
  }
}

/**
 * Runs the action at `index` of a batch: a refusal names the action (its message starts
 * "Action n: ", its details carry `actionIndex`), with the same code and rule.
 */
export function inBatch<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RuleViolation) {
      throw new RuleViolation(e.code, e.rule, `Action ${index + 1}: ${e.message}`, { ...(e.details ?? {}), actionIndex: index });
    }
    throw e;
  }
}

export function refuse(code: DomainErrorCode, rule: string | null, message: string, details?: Record<string, unknown>): never {
  throw new RuleViolation(code, rule, message, details);
}
