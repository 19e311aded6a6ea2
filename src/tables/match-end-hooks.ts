import { Injectable } from '@nestjs/common';
import type { Tx } from '../db/tx';
import type { MatchScore } from '../domain/match';
import type { NewEvent } from '../outbox/event-types';
import type { MatchTableRow } from './stored-state';

/** A match that a command has just ended, or reopened by a void (R3.2, R3.9, R6.3). */
export interface MatchChange {
  /** The match as the command will save it (its status and state after the change). */
  readonly match: MatchTableRow;
  readonly kind: 'ended' | 'reopened';
  /** The match's score after the change. */
  readonly score: MatchScore;
  readonly at: Date;
}

/**
 * The writes a hook decided, deferred by the command once its own reads are done; answers
 * the events they make, which the command emits after its own (one emit per command).
 */
export type HookWrites = () => NewEvent[];

/**
 * Something that follows the end of some matches (a tournament, R9.5): it reads and locks
 * what it needs when the change is decided, may refuse the change (R9.10), and answers the
 * writes it will make with the command's COMMIT.
 */
export interface MatchEndHook {
  prepare(tx: Tx, change: MatchChange): Promise<HookWrites | null>;
}

const NOTHING: HookWrites = () => [];

/**
 * The hooks on a match's end, registered once at start by the modules that have one, so
 * that the tables do not depend on them. Only a match whose setup names a tournament has
 * any to run.
 */
@Injectable()
export class MatchEndHooks {
  private readonly hooks: MatchEndHook[] = [];

  register(hook: MatchEndHook): void {
    this.hooks.push(hook);
  }

  async prepare(tx: Tx, change: MatchChange): Promise<HookWrites> {
    if (!change.match.setup.tournament || this.hooks.length === 0) return NOTHING;
    const writes: HookWrites[] = [];
    for (const h of this.hooks) {
      const w = await h.prepare(tx, change);
      if (w) writes.push(w);
    }
    return () => writes.flatMap((w) => w());
  }
}
