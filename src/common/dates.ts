/** RFC 3339 UTC for a time that may be absent. */
export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
