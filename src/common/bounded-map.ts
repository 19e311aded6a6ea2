/**
 * Sets `key` in a map kept to at most `max` entries: a new key past the bound first drops
 * the oldest entry (a Map iterates in insertion order), so an in-memory cache cannot grow
 * with what outsiders send.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
