/**
 * The methods each route path answers, so that a request whose path exists but not with
 * its method is answered 405 with `Allow` (RFC 9110), not 404. Filled from Fastify's
 * `onRoute` as the routes are registered; read-only once the app listens.
 */
export class RouteMethods {
  private readonly routes: Array<{ method: string; parts: string[] }> = [];

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) this.routes.push({ method: m.toUpperCase(), parts: segments(url) });
  }

  /** The methods some route answers on this path (sorted; HEAD wherever GET is); none: no such path. */
  allowed(path: string): string[] {
    const segs = segments(path);
    const found = new Set<string>();
    for (const r of this.routes) if (matches(r.parts, segs)) found.add(r.method);
    if (found.has('GET')) found.add('HEAD');
    return [...found].sort();
  }
}

function segments(path: string): string[] {
  return path.split('/').filter((s, i) => i > 0 || s !== '');
}

/** `:name` matches one non-empty segment, `*` the rest of the path, anything else itself. */
function matches(pattern: string[], segs: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p === '*') return true;
    if (i >= segs.length) return false;
    if (p.startsWith(':') ? segs[i] === '' : p !== segs[i]) return false;
  }
  return pattern.length === segs.length;
}
