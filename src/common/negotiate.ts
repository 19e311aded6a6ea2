/**
 * HTTP content negotiation (RFC 9110 §12.5.1): which of the media types a route
 * offers best fits the client's Accept header. Offers are in the server's order of
 * preference, which also breaks ties; no Accept header means the first offer.
 * Returns null when the client accepts none of them (answer 406).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | null {
  if (accept === undefined || accept.trim() === '') return offered[0] ?? null;
  const ranges = accept.split(',').flatMap((part) => {
    const [range, ...params] = part
      .trim()
      .split(';')
      .map((x) => x.trim());
    const m = /^([\w!#$%&'*+.^`|~-]+)\/([\w!#$%&'*+.^`|~-]+)$/.exec(range ?? '');
    if (!m) return [];
    let q = 1;
    for (const p of params) {
      const qm = /^q=([01](?:\.\d{0,3})?)$/i.exec(p);
      if (qm) q = Math.min(1, Number(qm[1]));
    }
    return [{ type: m[1].toLowerCase(), subtype: m[2].toLowerCase(), q }];
  });
  let best: string | null = null;
  let bestQ = 0;
  for (const offer of offered) {
    const [type, subtype] = offer.toLowerCase().split('/');
    // The most specific matching range decides this offer's quality.
    let q = -1;
    let specificity = -1;
    for (const r of ranges) {
      const s = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
      if (s > specificity) {
        specificity = s;
        q = r.q;
      }
    }
    if (q > bestQ) {
      best = offer;
      bestQ = q;
    }
  }
  return best;
}
