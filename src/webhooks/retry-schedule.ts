/**
 * When a webhook delivery is tried again (pure). The HTTP contract: the first retry within
 * 10 s, at least 8 attempts over at least 24 h, exponential backoff.
 *
 * The default waits after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h,
 * so 8 attempts over about 27.6 h. Each wait is spread by ±10 % (jitter), so the retries
 * of many deliveries that failed together (a receiver down) do not all come back at the
 * same instant: the first retry still comes within 5.5 s, and the last after at least
 * 24.8 h. WEBHOOK_RETRY_SCHEDULE replaces the waits (tests use a few seconds).
 */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** How much a wait is spread either way. */
export const RETRY_JITTER = 0.1;

/** How many attempts a delivery gets in all under a schedule (the first, then one per wait). */
export const maxAttempts = (schedule: readonly number[]): number => schedule.length + 1;

/**
 * The wait in seconds (millisecond precision) before the next attempt, after `attemptsMade`
 * attempts that all failed; null when that was the last one. `random` answers in [0, 1).
 */
export function retryDelaySeconds(schedule: readonly number[], attemptsMade: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1 || attemptsMade > schedule.length) return null;
  const base = schedule[attemptsMade - 1];
  const spread = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(base * spread * 1000) / 1000;
}

/** What became of one attempt, by the receiver's answer. */
export type AttemptOutcome = 'delivered' | 'gone' | 'failed';

/** Any 2xx is delivered; 410 Gone disables the subscription; anything else is tried again. */
export function outcomeOfStatus(status: number): AttemptOutcome {
  if (status >= 200 && status <= 299) return 'delivered';
  if (status === 410) return 'gone';
  return 'failed';
}

/** The longest error text kept in the delivery log. */
export const MAX_ERROR_TEXT = 500;

/** An error text for the log: control characters as spaces, at most MAX_ERROR_TEXT characters. */
export function boundedErrorText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length <= MAX_ERROR_TEXT ? clean : `${clean.slice(0, MAX_ERROR_TEXT - 1)}…`;
}
