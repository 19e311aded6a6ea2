import { bearer, newClub, TestApp } from './app';

/** A club with named players, and short-hands for the calls a scorer makes. */
export async function clubWith(t: TestApp, names: string[]) {
  const { owner } = await newClub(t);
  const h = bearer(owner);
  const ids: Record<string, string> = {};
  for (const name of names) ids[name] = (await t.http().post('/v1/players').set(h).send({ name })).body.id;
  const api = {
    owner,
    ids,
    post: (url: string, body?: object) =>
      t
        .http()
        .post(url)
        .set(h)
        .send(body ?? {}),
    get: (url: string) => t.http().get(url).set(h),
    session: async (body: object = {}) =>
      (
        await t
          .http()
          .post('/v1/sessions')
          .set(h)
          .send({ name: 'Club night', ...body })
      ).body.id as string,
  };
  return api;
}

/**
 * A player's statement followed by nextCursor from the first page to the last: every page
 * must answer 200, and there must be fewer than `maxPages` (a cursor that never ends fails).
 */
export async function statementPages<T extends { nextCursor: string | null }>(
  c: { get(url: string): PromiseLike<{ status: number; body: unknown }> },
  playerId: string,
  query: string,
  maxPages: number,
): Promise<T[]> {
  const pages: T[] = [];
  let cursor: string | null = null;
  do {
    const res = await c.get(`/v1/players/${playerId}/statement?${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(res.status).toBe(200);
    pages.push(res.body as T);
    cursor = (res.body as T).nextCursor;
    expect(pages.length).toBeLessThan(maxPages);
  } while (cursor !== null);
  return pages;
}

export const double = (by: string, extra: object = {}) => ({ type: 'double', by, ...extra });
export const take = (by: string) => ({ type: 'take', by });
export const pass = (by: string) => ({ type: 'pass', by });
export const beaver = (by: string) => ({ type: 'beaver', by });
export const raccoon = (by: string) => ({ type: 'raccoon', by });
export const finish = (winner: string, result: 'single' | 'gammon' | 'backgammon' = 'single', resigned = false) => ({ type: 'finish', winner, result, resigned });

/** Nets per party (received − paid) from a list of ledger payouts. */
export function nets(payouts: Array<{ from: string; to: string; amountMinor: number }>): Record<string, number> {
  const n: Record<string, number> = {};
  for (const p of payouts) {
    n[p.to] = (n[p.to] ?? 0) + p.amountMinor;
    n[p.from] = (n[p.from] ?? 0) - p.amountMinor;
  }
  return n;
}
