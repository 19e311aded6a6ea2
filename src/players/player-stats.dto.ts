import { ApiProperty } from '@nestjs/swagger';
import { GAME_VARIANTS, type GameVariant } from '../domain/variants';
import { PlayerDto } from './players.dto';

const GAMES = "Over the player's finished games in the club (every table kind, with or without a session); voided and abandoned games do not count (R6.3).";
const LEVEL =
  'The level of the game as played: the `result` of a game ended by `finish`; a resignation counts at the level resigned (R1.4); a game ended by a pass is single (R1.3). Counted before Jacoby (R1.5) or `backgammonMultiplier` (R1.2) change its value.';
const CUBE =
  'Actions of finished games whose `by` is the player. One double is one action, however many chouette cubes it addressed (R5.3); in `single` chouette mode the team double counts for the captain who recorded it.';

export class MoneyNetDto {
  @ApiProperty({ description: 'ISO 4217 currency of the sessions summed.', example: 'USD' })
  currency: string;

  @ApiProperty({
    description: "Sum of the player's session nets in this currency (what his games and match stakes won (+) or lost (−), after rake, R6.4), before payments; minor units.",
    example: -1250,
  })
  netMinor: number;
}

/**
 * A player's statistics. Definitions below; the pure computation and its
 * tests are src/domain/player-stats.ts.
 */
export class PlayerStatsDto {
  @ApiProperty({
    description: 'Finished matches (a score reached the target, R3.2, or penalties forfeited it, R3.6) in which the player sat on a side. Matches in progress do not count.',
    example: 4,
  })
  matchesPlayed: number;

  @ApiProperty({ description: "Those matches won: the player is on the side that reached the target (or was awarded the forfeit), as the match's own score says.", example: 3 })
  matchesWon: number;

  @ApiProperty({ description: `Games played. ${GAMES} A chouette game counts for everyone seated at its start (box, partner, team).`, example: 57 })
  gamesPlayed: number;

  @ApiProperty({
    description:
      "Games won: the player is on the winning side (`winnerSide`). A pair (R3.7) wins together. In a chouette each member's game is his own cube's (R5.4, R5.5): won when his cube won (the box passed his double, or his cube won at the finish), lost when he passed a box double or lost at the finish. The box wins when his cubes net him points (each cube's points, before stakes), loses when they net him a loss, neither when even; his partner (R5.9) wins and loses with him. Gammons count in a chouette only where the finish decided the player's own game.",
    example: 31,
  })
  gamesWon: number;

  @ApiProperty({ description: `Gammons in games won. ${LEVEL}`, example: 6 })
  gammonsWon: number;

  @ApiProperty({ description: `Gammons in games lost. ${LEVEL}`, example: 4 })
  gammonsLost: number;

  @ApiProperty({ description: `Backgammons in games won. ${LEVEL}`, example: 1 })
  backgammonsWon: number;

  @ApiProperty({ description: `Backgammons in games lost. ${LEVEL}`, example: 0 })
  backgammonsLost: number;

  @ApiProperty({ description: `Doubles offered (R2.2). ${CUBE}`, example: 22 })
  doubles: number;

  @ApiProperty({ description: `Doubles taken (R2.3). ${CUBE}`, example: 15 })
  takes: number;

  @ApiProperty({ description: `Doubles passed (R1.3). ${CUBE}`, example: 5 })
  passes: number;

  @ApiProperty({ description: `Beavers (R2.4) and raccoons (R2.5): a raccoon counts as a beaver, both being instant redoubles. ${CUBE}`, example: 1 })
  beavers: number;

  @ApiProperty({
    description: "Resignations the player offered (R3.10): accepted plus refused. Counted from the player's finished games; a resignation recorded without `offeredBy` counts for nobody.",
    example: 3,
  })
  resignationsOffered: number;

  @ApiProperty({ description: 'Of those, accepted: resigned finishes whose `offeredBy` is the player (R3.10).', example: 2 })
  resignationsAccepted: number;

  @ApiProperty({ description: 'Of those, refused: his `resign-refused` actions (R3.10).', example: 1 })
  resignationsRefused: number;

  @ApiProperty({
    type: [MoneyNetDto],
    description: "Money net per currency, by currency code: the sum of the player's nets over every session he played in (its statement's `netMinor`). Empty when he never played for money.",
  })
  money: MoneyNetDto[];
}

/** One variant's share of the player's finished games (R8.9). */
export class VariantStatsDto {
  @ApiProperty({
    enum: GAME_VARIANTS,
    description: "The game's own variant (R8): a Tavli table's games count as Portes, Plakoto or Fevga (R8.5); chouettes and games recorded before variants are backgammon.",
    example: 'backgammon',
  })
  variant: GameVariant;

  @ApiProperty({ description: `Games of this variant played. ${GAMES}`, example: 40 })
  gamesPlayed: number;

  @ApiProperty({ description: 'Of those, games won (as `stats.gamesWon` counts them).', example: 22 })
  gamesWon: number;

  @ApiProperty({ description: 'Of those, games lost.', example: 17 })
  gamesLost: number;

  @ApiProperty({ description: 'Of those, Plakoto draws (R8.3): played, neither won nor lost.', example: 1 })
  draws: number;

  @ApiProperty({
    description:
      "Points these games scored for the player: a won game's `points` (cube × result; a Tavla 31 game's `checkersLeft`, R8.6); in a chouette a member's own cube's points, the box's and his partner's every cube he won.",
    example: 35,
  })
  pointsWon: number;

  @ApiProperty({ description: 'Points these games scored against the player, counted as `pointsWon` is.', example: 28 })
  pointsLost: number;
}

/** `GET /v1/players/{id}`: the player and his statistics. */
export class PlayerDetailDto extends PlayerDto {
  @ApiProperty({
    type: PlayerStatsDto,
    description:
      "Statistics over the club's finished games and matches, kept up to date by every game, void and match (the same figures as over the whole history). Only here: the items of `GET /v1/players` and the answers of POST and PATCH leave them out.",
  })
  stats: PlayerStatsDto;

  @ApiProperty({
    type: [VariantStatsDto],
    description:
      'The same finished games split by variant (R8.9), backgammon first, then in the order of the variants list; only the variants the player has played. A draw counts as played, neither won nor lost.',
  })
  statsByVariant: VariantStatsDto[];
}
