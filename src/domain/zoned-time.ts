/**
 * Instants written in a club's own time zone (an IANA zone such as Asia/Tokyo), for
 * what the service prints: statements, CSV files, PDFs. Every written time carries its
 * UTC offset (or says UTC), so it names one instant however the reader is set up.
 * JSON answers keep RFC 3339 UTC; these are for renderings only.
 *
 * Pure: the zone rules come from the runtime's own time zone data (Intl.DateTimeFormat),
 * nothing is read from the clock, the locale or the machine's zone.
 */

/** The wall clock of an instant in a zone. */
export interface ZonedTime {
  /** YYYY-MM-DD, the calendar day there. */
  date: string;
  /** HH:MM:SS (00–23 hours). */
  time: string;
  /** The milliseconds, three digits. */
  millis: string;
  /** Local time minus UTC, in minutes (+540 in Tokyo, −300 or −240 in New York). */
  offsetMinutes: number;
  /** True when the zone is UTC itself (not merely at offset 0, as London is in winter). */
  utc: boolean;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for the zone UTC under any of its names (UTC, Etc/UTC, Etc/Zulu, …). */
export function isUtcZone(timeZone: string): boolean {
  return formatter(timeZone).resolvedOptions().timeZone === 'UTC';
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `date` as a Date, or null when it is not a valid time (a string that does not parse). */
function toDate(instant: string | Date): Date | null {
  const d = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * The wall clock of `instant` in `timeZone`, or null when the instant is not a valid
 * time. Years outside 1000–9999, and the odd historical offset that is not a whole
 * number of minutes (local mean time before 1900), are given in UTC instead, so what
 * is printed is always exact. Throws RangeError for an unknown zone.
 */
export function zonedTime(instant: string | Date, timeZone: string): ZonedTime | null {
  const d = toDate(instant);
  if (!d) return null;
  const ms = d.getTime();
  const millis = ((ms % 1000) + 1000) % 1000;
  const utc = isUtcZone(timeZone);
  const inUtc = (): ZonedTime => {
    const iso = d.toISOString();
    return { date: iso.slice(0, 10), time: iso.slice(11, 19), millis: pad(millis, 3), offsetMinutes: 0, utc: true };
  };
  const year = d.getUTCFullYear();
  if (utc || year < 1000 || year > 9999) return inUtc();
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(d)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const { year: y, month: mo, day, hour, minute, second } = parts;
  if (![y, mo, day, hour, minute, second].every(Number.isInteger) || y < 1000 || y > 9999) return inUtc();
  const offsetMs = Date.UTC(y, mo - 1, day, hour, minute, second) - (ms - millis);
  if (offsetMs % 60_000 !== 0) return inUtc();
  return { date: `${y}-${pad(mo)}-${pad(day)}`, time: `${pad(hour)}:${pad(minute)}:${pad(second)}`, millis: pad(millis, 3), offsetMinutes: offsetMs / 60_000, utc: false };
}

/** An offset in minutes as ±HH:MM (+09:00, -05:00, +05:45, +00:00). */
export function offsetText(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * RFC 3339 with the zone's offset: 2025-03-15T08:40:00.000+09:00 in Asia/Tokyo for
 * 2025-03-14T23:40:00.000Z; in the zone UTC itself it stays …Z. A value that is not a
 * valid time is returned as written.
 */
export function rfc3339InZone(instant: string, timeZone: string): string {
  const z = zonedTime(instant, timeZone);
  if (!z) return instant;
  return `${z.date}T${z.time}.${z.millis}${z.utc ? 'Z' : offsetText(z.offsetMinutes)}`;
}

/**
 * A time for people to read, to the minute, with its offset: "2025-03-15 08:40 +09:00",
 * or "2025-03-14 23:40 UTC" in the zone UTC. A value that is not a valid time is
 * returned as written.
 */
export function stampInZone(instant: string, timeZone: string): string {
  const z = zonedTime(instant, timeZone);
  if (!z) return instant;
  return `${z.date} ${z.time.slice(0, 5)} ${z.utc ? 'UTC' : offsetText(z.offsetMinutes)}`;
}

/** The calendar day (YYYY-MM-DD) of an instant in the zone; a value that is not a valid time is returned as written. */
export function dayInZone(instant: string, timeZone: string): string {
  return zonedTime(instant, timeZone)?.date ?? instant;
}

/**
 * The first instant whose calendar day in the zone (dayInZone) is `day` or later: where a
 * range that starts on a club-local day starts. Found by halving the 28 hours around the
 * day's UTC midnight (every zone's day starts within 14 hours of it), so a day that
 * starts at 01:00 (a spring change at midnight) starts at 01:00. Throws RangeError for an
 * unknown zone.
 */
export function dayStartInZone(day: string, timeZone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00.000Z`);
  let lo = midnight - 14 * 3600_000; // its day is before `day`
  let hi = midnight + 14 * 3600_000; // its day is `day` or later
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (dayInZone(new Date(mid).toISOString(), timeZone) >= day) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/** The calendar day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}
