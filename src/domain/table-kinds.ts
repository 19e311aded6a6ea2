/**
 * The kinds of table the club plays at: a match (R3), a money game (R4) and a chouette
 * (R5). Every type, list, decoder and document enum of table kinds derives from here.
 * Pure: no framework, no I/O.
 */
export const TABLE_KINDS = ['match', 'money', 'chouette'] as const;

/** A match, a money game or a chouette. */
export type TableKind = (typeof TABLE_KINDS)[number];

/**
 * How the API names each kind: `route`, the kind of its route (events' subjects, the
 * boards' and the games' `tableKind`); `path`, its collection under /v1/; `title`, its
 * name in messages.
 */
export const TABLE_KIND_NAMES = {
  match: { route: 'match', path: 'matches', title: 'Match' },
  money: { route: 'money-game', path: 'money-games', title: 'Money game' },
  chouette: { route: 'chouette', path: 'chouettes', title: 'Chouette' },
} as const satisfies Record<TableKind, { route: string; path: string; title: string }>;

/** A table's kind as its route names it. */
export type RouteKind = (typeof TABLE_KIND_NAMES)[TableKind]['route'];

/** The route kinds, in the order of TABLE_KINDS. */
export const ROUTE_KIND_NAMES: readonly RouteKind[] = TABLE_KINDS.map((k) => TABLE_KIND_NAMES[k].route);

/** A table's collection under /v1/ (`matches`, `money-games`, `chouettes`). */
export type TablePath = (typeof TABLE_KIND_NAMES)[TableKind]['path'];
