import { boundedErrorText, DEFAULT_RETRY_SCHEDULE, maxAttempts, outcomeOfStatus, retryDelaySeconds } from '../../src/webhooks/retry-schedule';

describe('webhook retry schedule', () => {
  const spanHours = (random: () => number) => {
    let total = 0;
    for (let n = 1; ; n++) {
      const wait = retryDelaySeconds(DEFAULT_RETRY_SCHEDULE, n, random);
      if (wait === null) return { attempts: n, hours: total / 3600 };
      total += wait;
    }
  };

  it('retries first within 10 s, then backs off: at least 8 attempts over at least 24 h, whatever the jitter', () => {
    expect(maxAttempts(DEFAULT_RETRY_SCHEDULE)).toBeGreaterThanOrEqual(8);
    for (const r of [0, 0.5, 0.999999]) {
      expect(retryDelaySeconds(DEFAULT_RETRY_SCHEDULE, 1, () => r)).toBeLessThanOrEqual(10);
      const { attempts, hours } = spanHours(() => r);
      expect(attempts).toBe(maxAttempts(DEFAULT_RETRY_SCHEDULE));
      expect(attempts).toBeGreaterThanOrEqual(8);
      expect(hours).toBeGreaterThanOrEqual(24);
      expect(hours).toBeLessThan(36);
    }
    // Exponential backoff: each wait at least the one before, and the later ones far longer than the first.
    for (let i = 1; i < DEFAULT_RETRY_SCHEDULE.length; i++) expect(DEFAULT_RETRY_SCHEDULE[i]).toBeGreaterThanOrEqual(DEFAULT_RETRY_SCHEDULE[i - 1]);
    expect(DEFAULT_RETRY_SCHEDULE[3] / DEFAULT_RETRY_SCHEDULE[0]).toBeGreaterThan(100);
  });

  it('spreads each wait by ±10 % and stops after the last', () => {
    expect(retryDelaySeconds([100, 200], 1, () => 0)).toBe(90);
    expect(retryDelaySeconds([100, 200], 1, () => 0.5)).toBe(100);
    expect(retryDelaySeconds([100, 200], 2, () => 0.999)).toBeCloseTo(219.96, 2);
    expect(retryDelaySeconds([100, 200], 3, () => 0.5)).toBeNull();
    expect(retryDelaySeconds([100, 200], 0)).toBeNull();
    expect(maxAttempts([1, 1, 1])).toBe(4);
  });

  it('delivers on any 2xx, stops on 410, retries anything else', () => {
    expect([200, 201, 204, 299].map(outcomeOfStatus)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(outcomeOfStatus(410)).toBe('gone');
    expect([100, 301, 400, 404, 429, 500, 503].map(outcomeOfStatus)).toEqual(Array(7).fill('failed'));
  });

  it('keeps error texts short and on one line', () => {
    expect(boundedErrorText('HTTP 500:\n\tboom\r\n')).toBe('HTTP 500: boom');
    const long = boundedErrorText('x'.repeat(5000));
    expect(long).toHaveLength(500);
    expect(long.endsWith('…')).toBe(true);
  });
});
