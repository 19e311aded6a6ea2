/**
 * A refusal by the rules. The domain throws it; the HTTP layer renders it as
 * problem+json (422 unless the code says otherwise) with `code` and `rule`.
 * `code` is stable UPPER_SNAKE; `rule` is the RULES.md id (e.g. "R3.4").
 */
export class RuleViolation extends Error {
  constructor(
    public readonly code: string,
    public readonly rule: string | null,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RuleViolation';
  }
}

export function refuse(code: string, rule: string | null, message: string, details?: Record<string, unknown>): never {
  throw new RuleViolation(code, rule, message, details);
}
