// What the HTTP layer hands a command (src/commands/commands.service.ts), and
// what a command throws instead of running when its answer was given before.
import type { Auth } from './auth';

/** What a command needs to know about its caller. */
export interface CommandContext {
  auth: Auth;
  /**
   * Idempotency-Key header, the hash of the request it came with, and the key its
   * stored answer is sealed with (derived from the caller's token: replay-seal.ts).
   */
  idempotency: { key: string; requestHash: string; sealKey: Buffer } | null;
  /**
   * What the audit record says about the request. Commands of club keys are recorded in
   * their club's record; the operator's in the record of the club it acted on, which
   * the command names in `clubId` once known (club creation).
   */
  audit?: { method: string; route: string; path: string; requestId: string | null; clientRequestId: string | null; body: unknown; clubId?: string };
  /**
   * The status the route answers when the command succeeds (its `@HttpCode`, else 201 for
   * POST and 200 otherwise, as Nest answers it): what the audit record and the answer kept
   * for replay say. Set by the edge (`@Command()`, request.ts), never by a service.
   */
  successStatus: number;
}

/**
 * Not an error: the answer of an earlier request with the same Idempotency-Key, the
 * status and the stored text. Commands.run throws it instead of running the work (so it
 * never travels through a service's result); its transaction, which wrote nothing, is
 * rolled back, the unit of work does not retry it, and the edge answers it as the
 * first answer, byte for byte (ProblemFilter: answerReplay, response-hooks.ts), neither
 * logged nor counted as a failure.
 */
export class ReplayedAnswer {
  constructor(
    public readonly status: number,
    public readonly body: string,
  ) {}
}
