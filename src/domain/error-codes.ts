/**
 * Every `code` a refusal by the rules can carry, with the rule ids it is raised with
 * (the first is the one its documented example shows; none for the refusals that cite no
 * rule), grouped by the part of docs/rules.md it belongs to. `refuse` and `RuleViolation`
 * take only these, so a misspelt code does not compile. Each is answered 422 with its
 * `code` and `rule`; the values are part of the API and never change. The OpenAPI
 * document's 422 answers list them from here. The HTTP layer's own codes
 * (VALIDATION_FAILED, NOT_FOUND, …) are in src/common/error-codes.ts.
 */
export const DOMAIN_ERRORS = {
  // A game and its result (R1), its lifecycle on a table (R6.3, R6.8).
  INVALID_ACTION: [], // an action the game does not know, or one it cannot take now
  INVALID_RESULT: ['R1.1', 'R1.4'],
  INVALID_BACKGAMMON_MULTIPLIER: ['R1.2'],
  CUBE_NOT_IN_PLAY: ['R1.1', 'R1.3'],
  NOT_IN_GAME: ['R3.7', 'R4.1', 'R5.2'],
  NOTHING_TO_UNDO: [],
  GAME_FINISHED: ['R1.1', 'R1.3', 'R2.2', 'R5.4', 'R6.3'],
  GAME_NOT_IN_PROGRESS: ['R6.3'],
  GAME_NOT_FINISHED: ['R3.8', 'R4.2', 'R5.5', 'R6.3'],
  GAME_IN_PROGRESS: ['R3.6', 'R5.8', 'R6.3', 'R6.8'],
  NOT_LATEST_GAME: ['R6.3'],
  NOTHING_TO_VOID: ['R6.3', 'R3.6', 'R3.9'],
  INVALID_RESIGNATION: ['R3.10'],

  // The cube (R2).
  NOT_CUBE_OWNER: ['R2.2'],
  CUBE_LIMIT_EXCEEDED: ['R2.2', 'R2.7'],
  INVALID_CUBE_LIMIT: ['R2.2'],
  NO_OFFER_PENDING: ['R2.3'],
  OFFER_PENDING: ['R2.6'],
  NOT_DOUBLED_PARTY: ['R2.6'],
  WRONG_INSTANT_REDOUBLE: ['R2.4', 'R2.5'],
  BEAVERS_NOT_ALLOWED: ['R2.4', 'R2.8'],
  RACCOONS_NOT_ALLOWED: ['R2.5', 'R2.8'],
  RACCOONS_NEED_BEAVERS: ['R2.5'],
  INVALID_AUTOMATIC_DOUBLES: ['R2.7'],
  TOO_MANY_AUTOMATIC_DOUBLES: ['R2.7'],
  AUTOMATIC_DOUBLES_NOT_ALLOWED: ['R2.8'],

  // A table's settings (R2.8, R3.5, R4.3, R5.12).
  MONEY_ONLY_SETTING: ['R2.8'],
  INVALID_SETTING: ['R2.8', 'R3.5', 'R4.3', 'R5.12'],
  UNKNOWN_SETTING: ['R2.8', 'R4.3', 'R5.12'],

  // Matches and team events (R3).
  INVALID_TARGET: ['R3.1'],
  TARGET_EVEN: ['R3.1'],
  TARGET_OUT_OF_RANGE: ['R3.1'],
  MATCH_FINISHED: ['R3.2'],
  INVALID_MATCH_EVENT: ['R3.2', 'R3.6'],
  INVALID_GAME_POINTS: ['R3.2'],
  INVALID_PENALTY: ['R3.6'],
  NO_CUBE_IN_ONE_POINT_MATCH: ['R3.3'],
  CRAWFORD_NO_DOUBLE: ['R3.4'],
  DEAD_CUBE: ['R3.5'],
  INVALID_SIDES: ['R3.7', 'R4.1'],
  DUPLICATE_PLAYER: ['R3.7', 'R4.1', 'R5.1', 'R7.1'],
  TEAMS_UNEQUAL: ['R3.7'],
  BOARDS_EVEN: ['R3.7'],
  INVALID_TEAMS: ['R3.7'],
  TOO_MANY_BOARDS: ['R3.7'],
  STAKE_NEEDS_SESSION: ['R3.8'],

  // Stakes (R3.8, R4.1, R5.11).
  INVALID_STAKE: ['R3.8', 'R4.1', 'R5.11'],

  // Chouettes (R5).
  CHOUETTE_PLAYER_COUNT: ['R5.1'],
  CHOUETTE_FULL: ['R5.1'],
  INVALID_SEATING: ['R5.1'],
  INVALID_ROLL: ['R5.1'],
  ROLL_OFF_TIE: ['R5.1'],
  INVALID_SEATS: ['R5.1'],
  INVALID_PLAYER: ['R5.1', 'R5.8'],
  INVALID_CUBE_MODE: ['R5.3'],
  SINGLE_TEAM_CUBE: ['R5.3'],
  NO_MEMBER_CUBES: ['R5.3'],
  NOT_ACTING_CAPTAIN: ['R5.3'],
  NOT_OWN_CUBE: ['R5.3'],
  UNKNOWN_CUBE: ['R5.3'],
  DUPLICATE_CUBE: ['R5.3'],
  CUBE_NOT_NAMED: ['R5.3'],
  NO_CUBES_NAMED: ['R5.3'],
  NO_BEAVER_ALONE: ['R5.3'],
  NO_CUBE_TO_DOUBLE: ['R2.2'], // (a chouette's cubes)
  MEMBER_OUT: ['R5.4'],
  INVALID_OUTCOME: ['R5.7'],
  NO_CAPTAIN: ['R5.7'],
  ALREADY_SEATED: ['R5.8'],
  NOT_SEATED: ['R5.8'],
  LAST_PLAYER: ['R5.8'],
  TOO_FEW_PLAYERS: ['R5.8'],
  INVALID_PARTNER_FROM: ['R5.9'],
  INVALID_PARTNER_SHARE: ['R5.9'],
  DUPLICATE_STAKE: ['R5.11'],

  // Money, the ledger and sessions (R6).
  AMOUNT_OUT_OF_RANGE: ['R6.2'],
  INVALID_RAKE_PERCENT: ['R6.4'],
  INVALID_PARTY: ['R6.5'],
  DUPLICATE_PARTY: ['R6.5'],
  UNBALANCED: ['R6.5'],
  SAME_PARTY: ['R6.6'],
  SESSION_CLOSED: ['R6.7'],
  GAMES_IN_PROGRESS: ['R6.7'],

  // Variants of the nardy family (R8) and money tables stopped at a lead (R4.4).
  RESULT_NOT_IN_VARIANT: ['R8.10'],
  NO_CUBE_IN_VARIANT: ['R8.10'],
  SETTING_NOT_IN_VARIANT: ['R8.10'],
  TABLE_FINISHED: ['R4.4'],

  // Ratings (R7).
  INVALID_RATING_INPUT: ['R7.1'],

  // Other games of the nardy family (R8).
  EXPORT_UNSUPPORTED_VARIANT: ['R8.9'],

  // Tournaments (R9).
  INVALID_TOURNAMENT: ['R9.1'],
  TOURNAMENT_NOT_OPEN: ['R9.2'],
  TOURNAMENT_NOT_RUNNING: ['R9.5', 'R9.8'],
  ALREADY_ENTERED: ['R9.2'],
  FLIGHT_FULL: ['R9.2'],
  NOT_ENTERED: ['R9.2', 'R9.8'],
  UNKNOWN_FLIGHT: ['R9.1', 'R9.2'],
  TOO_FEW_ENTRIES: ['R9.2'],
  INVALID_SEEDS: ['R9.3'],
  INVALID_PAYOUTS: ['R9.9'],
  ALREADY_OUT: ['R9.8'],
  NOT_SCHEDULED: ['R9.6'],
  CORRECTION_CLOSED: ['R9.10'],

  // A player named who is not in the caller's club (no rule id).
  UNKNOWN_PLAYER: [],
} as const satisfies Record<string, readonly string[]>;

/** A code a refusal by the rules carries. */
export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

/** Every refusal code, in the order of DOMAIN_ERRORS. */
export const DOMAIN_ERROR_CODES = Object.keys(DOMAIN_ERRORS) as DomainErrorCode[];

/** The rule ids a refusal with this code is raised with (empty for those that cite none). */
export const rulesOf = (code: DomainErrorCode): readonly string[] => DOMAIN_ERRORS[code];

const KNOWN: ReadonlySet<string> = new Set(DOMAIN_ERROR_CODES);

/** Whether `code` is one of the domain's codes. */
export function isDomainErrorCode(code: string): code is DomainErrorCode {
  return KNOWN.has(code);
}
