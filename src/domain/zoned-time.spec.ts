import fc from 'fast-check';
import { dayInZone, dayStartInZone, isUtcZone, nextDay, offsetText, rfc3339InZone, stampInZone, zonedTime } from './zoned-time';

describe('times in the club time zone', () => {
  it('writes an instant in Tokyo, the next calendar day there', () => {
    expect(rfc3339InZone('2025-03-14T23:40:00.000Z', 'Asia/Tokyo')).toBe('2025-03-15T08:40:00.000+09:00');
    expect(stampInZone('2025-03-14T23:40:00.000Z', 'Asia/Tokyo')).toBe('2025-03-15 08:40 +09:00');
    expect(dayInZone('2025-03-14T23:40:00.000Z', 'Asia/Tokyo')).toBe('2025-03-15');
  });

  it('follows New York across the spring change (EST −05:00 to EDT −04:00)', () => {
    expect(rfc3339InZone('2025-03-09T06:59:59.999Z', 'America/New_York')).toBe('2025-03-09T01:59:59.999-05:00');
    expect(rfc3339InZone('2025-03-09T07:00:00.000Z', 'America/New_York')).toBe('2025-03-09T03:00:00.000-04:00');
    expect(stampInZone('2025-03-09T07:30:00.000Z', 'America/New_York')).toBe('2025-03-09 03:30 -04:00');
  });

  it('tells the two 01:30 of the autumn change apart by their offsets', () => {
    expect(stampInZone('2025-11-02T05:30:00.000Z', 'America/New_York')).toBe('2025-11-02 01:30 -04:00');
    expect(stampInZone('2025-11-02T06:30:00.000Z', 'America/New_York')).toBe('2025-11-02 01:30 -05:00');
  });

  it('the day before in the Americas', () => {
    expect(dayInZone('2025-03-15T02:00:00.000Z', 'America/Los_Angeles')).toBe('2025-03-14');
  });

  it('writes offsets that are not whole hours', () => {
    expect(stampInZone('2025-06-01T12:00:00.000Z', 'Asia/Kathmandu')).toBe('2025-06-01 17:45 +05:45');
    expect(stampInZone('2025-01-01T12:00:00.000Z', 'America/St_Johns')).toBe('2025-01-01 08:30 -03:30');
    expect(rfc3339InZone('2025-01-01T12:00:00.000Z', 'Pacific/Chatham')).toBe('2025-01-02T01:45:00.000+13:45');
  });

  it('keeps Z and says UTC for the zone UTC, +00:00 for London in winter', () => {
    expect(rfc3339InZone('2025-03-14T23:40:00.000Z', 'UTC')).toBe('2025-03-14T23:40:00.000Z');
    expect(rfc3339InZone('2025-03-14T23:40:00.000Z', 'Etc/UTC')).toBe('2025-03-14T23:40:00.000Z');
    expect(stampInZone('2025-03-14T23:40:00.000Z', 'UTC')).toBe('2025-03-14 23:40 UTC');
    expect(rfc3339InZone('2025-01-14T23:40:00.000Z', 'Europe/London')).toBe('2025-01-14T23:40:00.000+00:00');
    expect(rfc3339InZone('2025-07-14T23:40:00.000Z', 'Europe/London')).toBe('2025-07-15T00:40:00.000+01:00');
    expect(isUtcZone('Etc/UTC')).toBe(true);
    expect(isUtcZone('Europe/London')).toBe(false);
  });

  it('returns what is not a time as written, and refuses an unknown zone', () => {
    expect(rfc3339InZone('not a time', 'Asia/Tokyo')).toBe('not a time');
    expect(stampInZone('', 'Asia/Tokyo')).toBe('');
    expect(zonedTime('2025-13-01', 'Asia/Tokyo')).toBeNull();
    expect(() => rfc3339InZone('2025-03-14T23:40:00.000Z', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });

  it('writes years past 9999 and before 1000 in UTC, exactly', () => {
    expect(zonedTime(new Date(Date.UTC(10000, 0, 1)), 'Asia/Tokyo')).toMatchObject({ utc: true, offsetMinutes: 0 });
    expect(zonedTime('0999-12-31T23:00:00.000Z', 'Asia/Tokyo')).toMatchObject({ date: '0999-12-31', time: '23:00:00', utc: true });
  });

  it('offsetText', () => {
    expect(offsetText(540)).toBe('+09:00');
    expect(offsetText(-300)).toBe('-05:00');
    expect(offsetText(0)).toBe('+00:00');
    expect(offsetText(-210)).toBe('-03:30');
  });

  it('names the same instant: parsing what it writes gives the instant back', () => {
    const zones = ['Asia/Tokyo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Kiritimati', 'UTC'];
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }), fc.constantFrom(...zones), (d, zone) => {
        const written = rfc3339InZone(d.toISOString(), zone);
        expect(written).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/);
        expect(new Date(written).getTime()).toBe(d.getTime());
      }),
    );
  });
});

describe('where a club-local day starts', () => {
  it('at local midnight: 15:00 UTC the day before in Tokyo, 05:00 UTC in New York in winter', () => {
    expect(dayStartInZone('2025-03-15', 'Asia/Tokyo').toISOString()).toBe('2025-03-14T15:00:00.000Z');
    expect(dayStartInZone('2025-01-10', 'America/New_York').toISOString()).toBe('2025-01-10T05:00:00.000Z');
    expect(dayStartInZone('2025-06-01', 'Asia/Kathmandu').toISOString()).toBe('2025-05-31T18:15:00.000Z');
    expect(dayStartInZone('2025-06-01', 'UTC').toISOString()).toBe('2025-06-01T00:00:00.000Z');
  });

  it('at 01:00 where the spring change skips midnight (Santiago, 2024-09-08: 00:00 −04:00 becomes 01:00 −03:00)', () => {
    expect(dayStartInZone('2024-09-08', 'America/Santiago').toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(dayInZone('2024-09-08T03:59:59.999Z', 'America/Santiago')).toBe('2024-09-07');
  });

  it('the day after, across a month and a leap day', () => {
    expect([nextDay('2024-02-28'), nextDay('2024-02-29'), nextDay('2025-12-31')]).toEqual(['2024-02-29', '2024-03-01', '2026-01-01']);
  });

  it('is the first instant of its day, for any day and zone', () => {
    const zones = ['Asia/Tokyo', 'America/New_York', 'Europe/London', 'Pacific/Chatham', 'America/St_Johns', 'Australia/Lord_Howe'];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        const day = new Date(ms).toISOString().slice(0, 10);
        const start = dayStartInZone(day, zone);
        expect(dayInZone(start.toISOString(), zone)).toBe(day);
        expect(dayInZone(new Date(start.getTime() - 1).toISOString(), zone) < day).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
