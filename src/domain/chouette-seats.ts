/**
 * Chouette seats: the roll-off (R5.1), rotation after a game (R5.7), joining and
 * leaving between games (R5.8) and the box partner (R5.9).
 *
 * Pure: every function returns new seats or throws a RuleViolation; its input is
 * never touched. Randomness only enters through an injected `RandomInt`.
 *
 * The seats are `{ box, partner, line }`: `line` is the team in line order, the
 * captain first. Every seated player is in exactly one of the three places.
 *
 * Acting captain and rotation (R5.4 / R5.7). The captain of record is `line[0]`
 * when the game starts. If he passes a box double, the next member still in the
 * game plays on as acting captain *for that game only* (./chouette-game tracks
 * him); the seats do not move during a game. Rotation afterwards looks only at the
 * captain of record's own cube:
 *   - the captain passed a box double (or a beaver/raccoon):  box beats captain;
 *   - the box passed the captain's double (or his beaver):    captain beats box;
 *   - the cube was still in play at the `finish`:              the winner of the game.
 * The decision is final as soon as the captain's cube is decided, whatever the
 * acting captain and the other cubes do afterwards. So when the captain passes and
 * the acting captain goes on to win, the box still stays, and it is the captain of
 * record (not the acting captain) who goes to the end of the line; the acting
 * captain keeps his place in the line (he becomes captain next game if he was next
 * in line). When the captain beats the box it is the captain of record who becomes
 * the box.
 */
import { refuse } from './errors';
import { ChouetteRules, CHOUETTE_MAX_PLAYERS, CHOUETTE_MIN_PLAYERS } from './chouette-rules';
import { PlayerId } from './types';

export interface ChouetteSeats {
  readonly box: PlayerId;
  /** R5.9: the box's partner (not on the team while partner), or null. */
  readonly partner: PlayerId | null;
  /** The team in line order; `line[0]` is the captain. */
  readonly line: readonly PlayerId[];
  /**
   * R5.8: the partner left, so the box has no partner until the next box change
   * (no new partner is chosen at the start of a game while this is set).
   */
  readonly partnerLeft: boolean;
}

/** Who won the box's game against the captain's cube (R5.7). */
export type CaptainOutcome = 'box' | 'captain';

/** An injected random source: returns an integer in [0, n). */
export type RandomInt = (n: number) => number;

export interface RollOffEntry {
  readonly playerId: PlayerId;
  readonly roll: number;
}

/** The three ways a chouette may be seated (the `seating` field). */
export type ChouetteSeating = { readonly rolls: readonly RollOffEntry[] } | { readonly order: readonly PlayerId[] } | { readonly shuffle: readonly PlayerId[] };

type PartnerRules = Pick<ChouetteRules, 'partnerFrom'>;

// ---------------------------------------------------------------------------
// R5.1 seating
// ---------------------------------------------------------------------------

/**
 * R5.1: seats in an explicit order: the first is the box, the second the captain,
 * the rest the team in order. 3–12 distinct players.
 */
export function seatInOrder(order: readonly PlayerId[]): ChouetteSeats {
  const players = checkPlayers(order);
  return { box: players[0], partner: null, line: players.slice(1), partnerLeft: false };
}

/**
 * R5.1: seats from the roll-off, highest roll first. Any tie among players is
 * refused (ROLL_OFF_TIE) until re-rolled and re-entered; the message and
 * `details.ties` name every tied group.
 */
export function seatFromRolls(rolls: readonly RollOffEntry[]): ChouetteSeats {
  // Array.isArray would narrow a readonly array to any[]: test the value as unknown.
  const list: unknown = rolls;
  if (!Array.isArray(list)) {
    refuse('INVALID_SEATING', 'R5.1', 'The roll-off is a list of { playerId, roll } (R5.1)');
  }
  for (const entry of rolls as readonly unknown[]) {
    const roll = (entry as RollOffEntry | null)?.roll;
    if (typeof entry !== 'object' || entry === null || typeof roll !== 'number' || !Number.isSafeInteger(roll) || roll < 1) {
      refuse('INVALID_ROLL', 'R5.1', 'Every roll-off entry is { playerId, roll } with a whole roll of 1 or more (R5.1)', {
        entry,
      });
    }
  }
  checkPlayers(rolls.map((r) => r.playerId));
  const byRoll = new Map<number, PlayerId[]>();
  for (const { playerId, roll } of rolls) byRoll.set(roll, [...(byRoll.get(roll) ?? []), playerId]);
  const ties = [...byRoll.entries()]
    .filter(([, players]) => players.length > 1)
    .sort(([a], [b]) => b - a)
    .map(([roll, players]) => ({ roll, players }));
  if (ties.length > 0) {
    const text = ties.map((t) => `${t.players.join(', ')} (${t.roll})`).join('; ');
    refuse('ROLL_OFF_TIE', 'R5.1', `Tie in the roll-off: ${text}. The tied players re-roll and the rolls are entered again (R5.1)`, {
      ties,
    });
  }
  const order = [...rolls].sort((a, b) => b.roll - a.roll).map((r) => r.playerId);
  return seatInOrder(order);
}

/**
 * R5.1: a shuffle (Fisher–Yates) driven by `random(n)`, an integer in [0, n).
 * The same random source gives the same seats.
 */
export function seatByShuffle(players: readonly PlayerId[], random: RandomInt): ChouetteSeats {
  const order = [...checkPlayers(players)];
  for (let i = order.length - 1; i > 0; i--) {
    const j = random(i + 1);
    if (!Number.isInteger(j) || j < 0 || j > i) {
      throw new Error(`seatByShuffle: the random source returned ${String(j)} for n = ${i + 1}; expected an integer in [0, ${i}]`);
    }
    [order[i], order[j]] = [order[j], order[i]];
  }
  return seatInOrder(order);
}

/** R5.1: whichever of the three seatings the request chose. */
export function seatChouette(seating: ChouetteSeating, random: RandomInt): ChouetteSeats {
  const s = seating as Record<string, unknown> | null;
  const kinds = s && typeof s === 'object' ? ['rolls', 'order', 'shuffle'].filter((k) => k in s) : [];
  if (kinds.length !== 1) {
    refuse('INVALID_SEATING', 'R5.1', 'Seating is exactly one of { rolls }, { order } or { shuffle } (R5.1)');
  }
  if ('rolls' in seating) return seatFromRolls(seating.rolls);
  if ('order' in seating) return seatInOrder(seating.order);
  return seatByShuffle(seating.shuffle, random);
}

function checkPlayers(players: readonly unknown[]): PlayerId[] {
  if (!Array.isArray(players)) {
    refuse('INVALID_SEATING', 'R5.1', 'The players are a list of player ids (R5.1)');
  }
  if (players.length < CHOUETTE_MIN_PLAYERS || players.length > CHOUETTE_MAX_PLAYERS) {
    refuse('CHOUETTE_PLAYER_COUNT', 'R5.1', `A chouette seats ${CHOUETTE_MIN_PLAYERS} to ${CHOUETTE_MAX_PLAYERS} players (R5.1); ${players.length} given`, { count: players.length });
  }
  const seen = new Set<PlayerId>();
  for (const p of players) {
    if (typeof p !== 'string' || p.length === 0) {
      refuse('INVALID_PLAYER', 'R5.1', 'Every player is named by his id (R5.1)', { playerId: p });
    }
    if (seen.has(p)) {
      refuse('DUPLICATE_PLAYER', 'R5.1', `Player ${p} is named twice: each player takes one seat (R5.1)`, { playerId: p });
    }
    seen.add(p);
  }
  return [...(players as PlayerId[])];
}

// ---------------------------------------------------------------------------
// Reading the seats
// ---------------------------------------------------------------------------

/** Every seated player: box, partner (if any), then the line. */
export function seatedPlayers(seats: ChouetteSeats): PlayerId[] {
  return [seats.box, ...(seats.partner === null ? [] : [seats.partner]), ...seats.line];
}

export function seatedCount(seats: ChouetteSeats): number {
  return 1 + (seats.partner === null ? 0 : 1) + seats.line.length;
}

/** The captain (first of the line), or null when the team is empty. */
export function captainOf(seats: ChouetteSeats): PlayerId | null {
  return seats.line.length > 0 ? seats.line[0] : null;
}

export function isSeated(seats: ChouetteSeats, player: PlayerId): boolean {
  return seats.box === player || seats.partner === player || seats.line.includes(player);
}

// ---------------------------------------------------------------------------
// R5.8 / R5.9 game start
// ---------------------------------------------------------------------------

/**
 * R5.8: a game needs the box and at least one other seated player ("with fewer
 * than two players seated no game can start"). A lone partner counts: he plays
 * as captain (see seatsAtGameStart).
 */
export function canStartGame(seats: ChouetteSeats): boolean {
  return seatedCount(seats) >= 2;
}

function assertCanStartGame(seats: ChouetteSeats): void {
  if (!canStartGame(seats)) {
    refuse('TOO_FEW_PLAYERS', 'R5.8', 'With fewer than two players seated no chouette game can start (R5.8)', {
      seated: seatedCount(seats),
    });
  }
}

/**
 * R5.8/R5.9: the seats the next game is played with.
 * - R5.9: when at least `partnerFrom` players are seated and the box has no
 *   partner, the player after the captain (line[1]) becomes the partner, unless
 *   the partner left since the last box change (R5.8, `partnerLeft`).
 * - Interpretation: a partner with nobody left on the team (everybody else left)
 *   goes back to the team as captain, since the box needs an opponent.
 * Refuses TOO_FEW_PLAYERS (R5.8) when no game can start. The caller keeps the
 * seats from before, so an abandoned or voided game changes nothing (R6.3).
 */
export function seatsAtGameStart(seats: ChouetteSeats, rules: PartnerRules): ChouetteSeats {
  assertCanStartGame(seats);
  if (seats.line.length === 0 && seats.partner !== null) {
    return { ...seats, partner: null, line: [seats.partner] };
  }
  if (seats.partner === null && !seats.partnerLeft && partnerWanted(seatedCount(seats), rules) && seats.line.length >= 2) {
    return { ...seats, partner: seats.line[1], line: [seats.line[0], ...seats.line.slice(2)] };
  }
  return seats;
}

function partnerWanted(seated: number, rules: PartnerRules): boolean {
  return rules.partnerFrom !== null && seated >= rules.partnerFrom;
}

// ---------------------------------------------------------------------------
// R5.7 / R5.9 rotation
// ---------------------------------------------------------------------------

/**
 * R5.7/R5.9: the seats after a finished game, from the box's result against the
 * captain's cube (`game.captainOutcome` of ./chouette-game). `seats` are the seats
 * the game was played with (after seatsAtGameStart). An abandoned or voided game
 * does not rotate: do not call this for it.
 *
 * - Box beats captain: box (and partner) stay; the captain goes to the end of the
 *   line; the next in line becomes captain.
 * - Captain beats box, no partner: the captain becomes the box; the old box goes
 *   to the end of the line; the next in line becomes captain.
 * - Captain beats box, with a partner (R5.9): the old box goes to the end of the
 *   line, the partner becomes captain, the winning captain becomes box, and the
 *   next in line (the player after the new captain) becomes partner, only while at
 *   least `partnerFrom` players are seated.
 * A box change clears `partnerLeft`.
 */
export function rotateAfterGame(seats: ChouetteSeats, outcome: CaptainOutcome, rules: PartnerRules): ChouetteSeats {
  if (seats.line.length === 0) {
    refuse('NO_CAPTAIN', 'R5.7', 'There is no captain to rotate: the team is empty (R5.7)');
  }
  if (outcome !== 'box' && outcome !== 'captain') {
    refuse('INVALID_OUTCOME', 'R5.7', 'The rotation outcome is "box" (box beats captain) or "captain" (captain beats box) (R5.7)');
  }
  const [captain, ...rest] = seats.line;
  if (outcome === 'box') {
    return { ...seats, line: [...rest, captain] };
  }
  if (seats.partner === null) {
    return { box: captain, partner: null, line: [...rest, seats.box], partnerLeft: false };
  }
  return withNextPartner({ box: captain, partner: null, line: [seats.partner, ...rest, seats.box], partnerLeft: false }, rules);
}

/** R5.9: "the next in line becomes partner" (the player after the captain), while enough are seated. */
function withNextPartner(seats: ChouetteSeats, rules: PartnerRules): ChouetteSeats {
  if (seats.line.length >= 2 && partnerWanted(seatedCount(seats), rules)) {
    return { ...seats, partner: seats.line[1], line: [seats.line[0], ...seats.line.slice(2)] };
  }
  return seats;
}

// ---------------------------------------------------------------------------
// R5.8 joining and leaving (between games: the caller checks no game is in progress)
// ---------------------------------------------------------------------------

/** R5.8: a player joins at the end of the team line. At most 12 seated (R5.1). */
export function joinChouette(seats: ChouetteSeats, player: PlayerId): ChouetteSeats {
  if (typeof player !== 'string' || player.length === 0) {
    refuse('INVALID_PLAYER', 'R5.8', 'A joining player is named by his id (R5.8)', { playerId: player });
  }
  if (isSeated(seats, player)) {
    refuse('ALREADY_SEATED', 'R5.8', `Player ${player} is already seated at this chouette (R5.8)`, { playerId: player });
  }
  if (seatedCount(seats) >= CHOUETTE_MAX_PLAYERS) {
    refuse('CHOUETTE_FULL', 'R5.1', `A chouette seats at most ${CHOUETTE_MAX_PLAYERS} players (R5.1): ${player} cannot join`, {
      playerId: player,
    });
  }
  return { ...seats, line: [...seats.line, player] };
}

/**
 * R5.8: a player leaves.
 * - A team member: taken out of the line (the captain leaving makes the next in
 *   line captain).
 * - The partner: the box has none until the next box change (`partnerLeft`).
 * - The box: the captain becomes box; with a partner, the partner becomes captain
 *   and the next in line partner (while at least `partnerFrom` are seated, R5.9);
 *   without one, the next in line becomes captain. Interpretation: with an empty
 *   team, the partner becomes the box.
 * The last seated player cannot leave (LAST_PLAYER, R5.8): a chouette always has a box.
 */
export function leaveChouette(seats: ChouetteSeats, player: PlayerId, rules: PartnerRules): ChouetteSeats {
  if (!isSeated(seats, player)) {
    refuse('NOT_SEATED', 'R5.8', `Player ${String(player)} is not seated at this chouette (R5.8)`, { playerId: player });
  }
  if (seats.line.includes(player)) {
    return { ...seats, line: seats.line.filter((p) => p !== player) };
  }
  if (seats.partner === player) {
    return { ...seats, partner: null, partnerLeft: true };
  }
  // The box leaves.
  if (seats.line.length === 0) {
    if (seats.partner === null) {
      refuse('LAST_PLAYER', 'R5.8', `${player} is the last player seated: the chouette always has a box (R5.8)`, {
        playerId: player,
      });
    }
    return { box: seats.partner, partner: null, line: [], partnerLeft: false };
  }
  const [captain, ...rest] = seats.line;
  if (seats.partner === null) {
    return { box: captain, partner: null, line: rest, partnerLeft: false };
  }
  return withNextPartner({ box: captain, partner: null, line: [seats.partner, ...rest], partnerLeft: false }, rules);
}
