import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TABLE_KIND_NAMES, TABLE_KINDS, type TablePath } from '../domain/table-kinds';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ListQuery } from '../common/pagination';
import { OptionalNullable } from '../common/validation';
import { IsCurrency } from '../common/validators';
import { FORFEIT_REASONS, type ForfeitReason } from '../domain/match';

/** A player id (UUID) or the club's house account. */
const PARTY_RE = /^(house|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const PARTY_DOC = 'A player id, or `"house"` for the club\'s house account (R6.4).';
const LEDGER_KINDS = ['game', 'void', 'match-stake', 'rake', 'entry-fee', 'prize'] as const;

/** `YYYY-MM-DD` (a day in the club's time zone) or an RFC 3339 date-time. */
const DAY_OR_TIME_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;

// ---- ledger -----------------------------------------------------------------------

export class GameRefDto {
  @ApiProperty({ enum: TABLE_KINDS.map((k) => TABLE_KIND_NAMES[k].path), description: 'The kind of table, as in its route.' })
  table: TablePath;

  @ApiProperty({ format: 'uuid' })
  tableId: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The game that posted the entry.' })
  gameNo: number | null;

  @ApiProperty({ description: 'Path of the game (or of the table) in this API.', example: '/v1/money-games/0190…/games/3' })
  href: string;
}

export class LedgerEntryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: GameRefDto, nullable: true, description: "The table and game the entry belongs to; null for a tournament's entry fee or prize (see `tournamentId`)." })
  gameRef: GameRefDto | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The tournament of an entry fee, a prize or their reversal (R9.9); null for a table's entry." })
  tournamentId: string | null;

  @ApiProperty({ description: `Who pays. ${PARTY_DOC}` })
  from: string;

  @ApiProperty({ description: `Who receives. ${PARTY_DOC}` })
  to: string;

  @ApiProperty({ description: 'Always positive, in minor units of the session currency.', minimum: 1 })
  amountMinor: number;

  @ApiProperty({ enum: LEDGER_KINDS, description: "`game` (R6.3), `void` (reversing entry, R6.3), `match-stake` (R3.8), `rake` (R6.4), `entry-fee` and `prize` (a tournament's, R9.9)." })
  kind: (typeof LEDGER_KINDS)[number];

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

export class LedgerQuery extends ListQuery {
  @ApiPropertyOptional({ enum: LEDGER_KINDS, description: 'Only entries of this kind.' })
  @IsOptional()
  @IsIn(LEDGER_KINDS)
  kind?: (typeof LEDGER_KINDS)[number];

  @ApiPropertyOptional({ description: `Only entries paid or received by this party. ${PARTY_DOC}` })
  @IsOptional()
  @Matches(PARTY_RE, { message: 'party must be a player id (UUID) or "house"' })
  party?: string;
}

// ---- payments ---------------------------------------------------------------------

export class CreatePaymentDto {
  @ApiProperty({ description: `Who hands the cash over. ${PARTY_DOC}` })
  @IsString()
  @Matches(PARTY_RE, { message: 'from must be a player id (UUID) or "house"' })
  from: string;

  @ApiProperty({ description: `Who receives it. ${PARTY_DOC}` })
  @IsString()
  @Matches(PARTY_RE, { message: 'to must be a player id (UUID) or "house"' })
  to: string;

  @ApiProperty({ description: 'Minor units of the session currency, 1 to 2^53 − 1.', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, example: 1500 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amountMinor: number;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'cash at the bar' })
  @OptionalNullable()
  @IsString()
  @MaxLength(500)
  note?: string | null;
}

export class PaymentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty({ description: PARTY_DOC })
  from: string;

  @ApiProperty({ description: PARTY_DOC })
  to: string;

  @ApiProperty({ minimum: 1 })
  amountMinor: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ type: String, nullable: true })
  note: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The API key that recorded the payment.' })
  recordedBy: string | null;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

// ---- statement --------------------------------------------------------------------

export class StatementPlayerDto {
  @ApiProperty({ format: 'uuid' })
  playerId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: "What the session's games won (+) or lost (−), after rake (R6.4, R6.5)." })
  netMinor: number;

  @ApiProperty({ description: 'Finished games played in the session (voided and abandoned games do not count).' })
  games: number;

  @ApiProperty({ description: 'Cash handed over in payments recorded against the session.' })
  paidMinor: number;

  @ApiProperty({ description: 'Cash received in those payments.' })
  receivedMinor: number;

  @ApiProperty({ description: 'R6.6: net + paid − received. Positive: still owed money; negative: still owes.' })
  outstandingMinor: number;
}

export class StatementPaymentDto {
  @ApiProperty({ format: 'uuid', description: 'The payment.' })
  id: string;

  @ApiProperty({ description: `Who handed the cash over. ${PARTY_DOC}` })
  from: string;

  @ApiProperty({ description: 'Their name (`House` for the house).' })
  fromName: string;

  @ApiProperty({ description: `Who received it. ${PARTY_DOC}` })
  to: string;

  @ApiProperty({ description: 'Their name (`House` for the house).' })
  toName: string;

  @ApiProperty({ minimum: 1, description: 'Minor units of the session currency.' })
  amountMinor: number;

  @ApiProperty({ type: String, nullable: true, description: 'The note recorded with the payment.' })
  note: string | null;

  @ApiProperty({ format: 'date-time', description: 'When it was recorded.' })
  at: string;
}

export class StatementMatchEndDto {
  @ApiProperty({ enum: ['points', 'forfeit'], description: '`points`: a score reached the target (R3.2); `forfeit`: a side forfeited (R3.9).' })
  kind: 'points' | 'forfeit';

  @ApiPropertyOptional({ enum: [0, 1], description: 'Forfeit only: the side that forfeited.' })
  side?: 0 | 1;

  @ApiPropertyOptional({ enum: FORFEIT_REASONS, description: 'Forfeit only: why (R3.9); `penalties` when penalty points against the side passed half the target (R3.6).' })
  reason?: ForfeitReason;
}

export class StatementMatchDto {
  @ApiProperty({ format: 'uuid' })
  matchId: string;

  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string', format: 'uuid' } }, description: 'Player ids, side 0 then side 1 (a side may be a pair, R3.7).' })
  sides: string[][];

  @ApiProperty({ type: [String], description: 'Each side\'s names, a pair joined by " & ".', example: ['Anna', 'Ben'] })
  sideNames: [string, string];

  @ApiProperty({ type: [Number], description: 'The final score, side 0 first (penalty points included, R3.6).', example: [5, 2] })
  score: [number, number];

  @ApiProperty({ enum: [0, 1], description: 'The side that won.' })
  winnerSide: 0 | 1;

  @ApiProperty({ type: StatementMatchEndDto, description: 'How the match ended (R3.2, R3.9).' })
  endedBy: StatementMatchEndDto;

  @ApiProperty({ type: Number, nullable: true, description: 'The stake the loser paid the winner (R3.8), or null.' })
  stakeMinor: number | null;

  @ApiProperty({ format: 'date-time', description: 'When its last game, penalty or forfeit was recorded.' })
  endedAt: string;
}

export class StatementPrizeDto {
  @ApiProperty({ format: 'uuid' }) playerId: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The place it pays (equal places share, R9.9).' }) place: number;
  @ApiProperty({ enum: ['main', 'consolation'], description: 'The bracket whose place it is (R9.11).' }) bracket: 'main' | 'consolation';
  @ApiProperty({ description: 'Paid by the house to the player (ledger kind `prize`).' }) amountMinor: number;
}

export class StatementTournamentDto {
  @ApiProperty({ format: 'uuid' }) tournamentId: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'main' }) flight: string;
  @ApiProperty({ enum: ['open', 'running', 'finished'], description: "The flight's status." }) status: 'open' | 'running' | 'finished';
  @ApiProperty({ description: 'Its entries, those who left included (no refund, R9.9).' }) entries: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The entry fee (R9.9), or null.' }) entryFeeMinor: number | null;
  @ApiProperty({ description: 'Entries × fee, paid to the house at the draw (ledger kind `entry-fee`).' }) poolMinor: number;
  @ApiProperty({ description: "The house's commission: `housePercent` of the pool, rounded down (R9.9)." }) houseMinor: number;
  @ApiProperty({ type: [StatementPrizeDto], description: 'The prizes, once the flight has finished (R9.9).' }) prizes: StatementPrizeDto[];
}

export class TransferDto {
  @ApiProperty({ description: `Who pays. ${PARTY_DOC}` })
  from: string;

  @ApiProperty()
  fromName: string;

  @ApiProperty({ description: `Who receives. ${PARTY_DOC}` })
  to: string;

  @ApiProperty()
  toName: string;

  @ApiProperty({ minimum: 1 })
  amountMinor: number;
}

export class StatementDto {
  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty()
  sessionName: string;

  @ApiProperty({ format: 'uuid' })
  clubId: string;

  @ApiProperty()
  clubName: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ['open', 'closed'] })
  status: 'open' | 'closed';

  @ApiProperty({ example: 2.5 })
  rakePercent: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  startsAt: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  closedAt: string | null;

  @ApiProperty({
    format: 'date-time',
    description: "Time of the latest ledger entry or payment the statement includes (the session's creation when there is none): the same ledger gives the same statement, byte for byte.",
  })
  asOf: string;

  @ApiProperty({ type: [StatementPlayerDto], description: 'By name, then id.' })
  players: StatementPlayerDto[];

  @ApiProperty({
    description: "The house's net: its take (rake, R6.4) and, from a tournament, the entry fees it holds less the prizes it has paid (its commission once the flight has finished, R9.9).",
  })
  houseMinor: number;

  @ApiProperty({ description: 'What the house is still owed (+) or owes (−) after the payments it took part in.' })
  houseOutstandingMinor: number;

  @ApiProperty({ type: [StatementPaymentDto], description: 'Payments recorded against the session, in the order recorded (R6.5).' })
  payments: StatementPaymentDto[];

  @ApiProperty({
    type: [StatementMatchDto],
    description:
      "The session's finished matches and how each ended, by points or by a forfeit (R3.2, R3.9), in the order they ended (then by id). A voided result that reopened a match takes it off the list.",
  })
  matches: StatementMatchDto[];

  @ApiProperty({
    type: [StatementTournamentDto],
    description:
      "The session's tournaments flight by flight (R9.9): entries, the prize pool, the house's commission and each prize; by name, then id. Their fees and prizes are in the players' nets and the house's.",
  })
  tournaments: StatementTournamentDto[];

  @ApiProperty({ type: [TransferDto], description: 'R6.5: who pays whom to settle every outstanding balance exactly; at most (parties with a non-zero balance − 1), the house counted.' })
  transfers: TransferDto[];

  @ApiProperty({ description: "Players' nets plus the house's: always 0.", example: 0 })
  totalMinor: number;
}

// ---- balances and player statements --------------------------------------------------

export class BalanceDto {
  @ApiProperty({ description: PARTY_DOC })
  playerId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'R6.6: nets plus paid minus received over every session in this currency. Positive: is owed.' })
  balanceMinor: number;
}

export class BalancesDto {
  @ApiProperty({ type: [BalanceDto], description: 'By currency, then name, then id.' })
  items: BalanceDto[];
}

export class BalancesQuery {
  @ApiPropertyOptional({ description: 'Only this currency.', example: 'USD' })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ description: `Only this party. ${PARTY_DOC}` })
  @IsOptional()
  @Matches(PARTY_RE, { message: 'playerId must be a player id (UUID) or "house"' })
  playerId?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: leave out parties whose balance is 0.' })
  @IsOptional()
  @IsIn(['true', 'false'])
  outstanding?: 'true' | 'false';
}

export class PlayerStatementQuery extends ListQuery {
  @ApiPropertyOptional({
    description: "First day (`YYYY-MM-DD`, in the club's time zone) or instant (RFC 3339) of the range, inclusive. Sessions are dated by `startsAt`, else by creation.",
    example: '2026-11-01',
  })
  @IsOptional()
  @Matches(DAY_OR_TIME_RE, { message: 'from must be a date (YYYY-MM-DD) or an RFC 3339 date-time' })
  from?: string;

  @ApiPropertyOptional({ description: 'Last day or instant of the range, inclusive.', example: '2026-11-30' })
  @IsOptional()
  @Matches(DAY_OR_TIME_RE, { message: 'to must be a date (YYYY-MM-DD) or an RFC 3339 date-time' })
  to?: string;
}

export class PlayerSessionLineDto {
  @ApiProperty({ format: 'uuid', description: 'The session.' })
  sessionId: string;

  @ApiProperty({ description: "The session's name." })
  name: string;

  @ApiProperty({ description: "The session's day in the club's time zone.", example: '2026-11-24' })
  date: string;

  @ApiProperty({ enum: ['open', 'closed'], description: "The session's status (R6.7)." })
  status: 'open' | 'closed';

  @ApiProperty({ example: 'USD', description: "The session's currency (ISO 4217), of every amount of the line." })
  currency: string;

  @ApiProperty({ description: 'Finished games the player played in the session (voided and abandoned games do not count).' })
  games: number;

  @ApiProperty({ description: "What the session's games won (+) or lost (−) the player, after rake (R6.4, R6.5)." })
  netMinor: number;

  @ApiProperty({ description: 'Cash the player handed over in payments recorded against the session (R6.6).' })
  paidMinor: number;

  @ApiProperty({ description: 'Cash the player received in those payments.' })
  receivedMinor: number;

  @ApiProperty({ description: 'net + paid − received for this session.' })
  outstandingMinor: number;
}

export class PlayerPaymentDto extends StatementPaymentDto {
  @ApiProperty({ format: 'uuid', description: 'The session the payment was recorded against.' })
  sessionId: string;

  @ApiProperty({ example: 'USD', description: "The session's currency." })
  currency: string;
}

export class PlayerTotalDto {
  @ApiProperty({ example: 'USD', description: 'The currency of the line (ISO 4217).' })
  currency: string;

  @ApiProperty({ description: 'Balance from the sessions before the range (0 without `from`).' })
  openingMinor: number;

  @ApiProperty({ description: 'Nets of the sessions in the range (all its pages).' })
  netMinor: number;

  @ApiProperty({ description: 'Cash the player handed over in payments recorded against the sessions in the range.' })
  paidMinor: number;

  @ApiProperty({ description: 'Cash the player received in those payments.' })
  receivedMinor: number;

  @ApiProperty({ description: 'opening + net + paid − received: the balance at the end of the range.' })
  closingMinor: number;

  @ApiProperty({ description: 'R6.6: the balance over every session, whatever the range (as in GET /v1/balances).' })
  balanceMinor: number;
}

export class PlayerStatementDto {
  @ApiProperty({ format: 'uuid', description: 'The player.' })
  playerId: string;

  @ApiProperty({ description: "The player's name." })
  name: string;

  @ApiProperty({ type: String, nullable: true, description: 'The `from` of the request, as given; null without one.' })
  from: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The `to` of the request, as given; null without one.' })
  to: string | null;

  @ApiProperty({
    type: [PlayerSessionLineDto],
    description:
      'A page of the sessions in the range in which the player played, sat at a table, paid or was paid: oldest first, by date (`startsAt`, else creation), then id; at most `limit`, the next ones with `cursor` = `nextCursor`.',
  })
  sessions: PlayerSessionLineDto[];

  @ApiProperty({ type: [PlayerPaymentDto], description: "The player's payments recorded against this page's sessions, session by session in their order, then in the order recorded." })
  payments: PlayerPaymentDto[];

  @ApiProperty({ type: [PlayerTotalDto], description: 'Per currency, over the whole range (every page, not only this one): the same on every page.' })
  totals: PlayerTotalDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' })
  nextCursor: string | null;
}
