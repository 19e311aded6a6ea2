import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/api-error';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { negotiate } from '../common/negotiate';
import { markReadSource, ReadHeaders, readSource } from '../common/read-source';
import { CsvQuery } from '../common/csv-query';
import { ApiProblem, ApiRefusals, EXAMPLE_ID, MONEY_READ_422, MONEY_WRITE_422 } from '../common/openapi';
import { ListQuery, PAGE_LIMIT, pageLimitText, PageOf } from '../common/pagination';
import { Command } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { BalancesDto, BalancesQuery, CreatePaymentDto, LedgerEntryDto, LedgerQuery, PaymentDto, PlayerStatementDto, PlayerStatementQuery, StatementDto } from './settlement.dto';
import { SettlementService } from './settlement.service';
import { renderStatementCsv } from './statement-csv';
import { renderStatementPdf } from './statement-pdf';

const LedgerPage = PageOf(LedgerEntryDto);
const PaymentPage = PageOf(PaymentDto);
const sessionId = () => Param('id', new UuidParam('Session'));

const STATEMENT_TYPES = ['application/json', 'text/csv', 'application/pdf'] as const;

@ApiTags('Sessions')
@Controller('v1/sessions/:id')
export class SessionMoneyController {
  constructor(private readonly settlement: SettlementService) {}

  @Get('ledger')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listSessionLedgerEntries', summary: "The session's ledger entries, in the order posted (R6.3, R6.4)" })
  @ApiOkResponse({ type: LedgerPage })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  ledger(@ClubKey() auth: KeyAuth, @sessionId() id: string, @Query() q: LedgerQuery) {
    return this.settlement.ledger(auth, id, q);
  }

  @Get('settlement')
  @ApiRefusals('INVALID_PARTY', 'DUPLICATE_PARTY', 'UNBALANCED')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'getSessionStatement',
    summary: 'The settlement statement: nets, house, payments and who pays whom (R6.5)',
    description:
      "JSON by default (times RFC 3339 UTC); `Accept: text/csv` answers the same statement as CSV (one header row, a `record` column: session, player, house, payment, transfer, total; every minor-unit amount also in major units as exact decimal text with the currency's ISO 4217 digits, in the columns `net`, `paid`, `received`, `outstanding`, `amount`; times RFC 3339 in the club's time zone with their offset; `?bom=1` puts a UTF-8 byte-order mark first), `Accept: application/pdf` as a printable A4 PDF (names in any script: Latin, Greek, Cyrillic, Chinese, Japanese, Korean, Arabic, Hebrew; times in the club's time zone with their offset, the zone named in the header). Available open or closed; recomputed from the same ledger in the same club time zone it is byte-identical.",
  })
  @ApiExtraModels(StatementDto)
  @ApiProduces(...STATEMENT_TYPES)
  @ApiResponse({
    status: 200,
    description: 'The statement.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(StatementDto) } },
      'text/csv': { schema: { type: 'string' } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  @ApiProblem(406, 'Accept names none of application/json, text/csv, application/pdf (NOT_ACCEPTABLE).')
  @ApiProblem(422, MONEY_READ_422)
  async statement(@ClubKey() auth: KeyAuth, @sessionId() id: string, @Query() q: CsvQuery, @Headers() headers: ReadHeaders, @Res({ passthrough: true }) reply: FastifyReply) {
    const type = negotiate(headers.accept, STATEMENT_TYPES);
    if (!type) {
      throw new ApiError(ErrorCode.NOT_ACCEPTABLE, `The statement is available as ${STATEMENT_TYPES.join(', ')}; Accept names none of them.`);
    }
    const source = readSource(headers);
    const { statement, timeZone } = await this.settlement.statement(auth, id, source);
    markReadSource(reply, source);
    const file = `settlement-${statement.sessionId}`;
    if (type === 'text/csv') {
      reply.header('content-type', 'text/csv; charset=utf-8; header=present');
      reply.header('content-disposition', `attachment; filename="${file}.csv"`);
      return renderStatementCsv(statement, { timeZone, bom: q.bom === '1' });
    }
    if (type === 'application/pdf') {
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="${file}.pdf"`);
      return renderStatementPdf(statement, { timeZone });
    }
    return statement;
  }

  @Post('payments')
  @ApiRefusals('SAME_PARTY', 'UNKNOWN_PLAYER', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'recordSessionPayment',
    summary: 'Record cash handed over (R6.6)',
    description: 'Against an open or a closed session. `from`/`to` are player ids or `"house"`. Payments are never changed: a mistake is corrected by a payment the other way.',
  })
  @ApiBody({
    type: CreatePaymentDto,
    examples: {
      settle: { summary: 'Anna pays Ben 15.00 in cash', value: { from: EXAMPLE_ID.anna, to: EXAMPLE_ID.ben, amountMinor: 1500, note: 'cash at the bar' } },
      rake: { summary: 'Ben pays the house its rake of 2.50 (R6.4)', value: { from: EXAMPLE_ID.ben, to: 'house', amountMinor: 250, note: null } },
    },
  })
  @ApiCreatedResponse({ type: PaymentDto })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  @ApiProblem(422, `from and to are the same party, or a player is not in this club (SAME_PARTY, UNKNOWN_PLAYER; R6.6); or ${MONEY_WRITE_422}`)
  pay(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @sessionId() id: string, @Body() dto: CreatePaymentDto) {
    return this.settlement.recordPayment(cmd, auth, id, dto);
  }

  @Get('payments')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listSessionPayments', summary: 'The payments recorded against the session, in the order recorded (R6.6)' })
  @ApiOkResponse({ type: PaymentPage })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  payments(@ClubKey() auth: KeyAuth, @sessionId() id: string, @Query() q: ListQuery) {
    return this.settlement.payments(auth, id, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }
}

@ApiTags('Players')
@Controller('v1')
export class BalancesController {
  constructor(private readonly settlement: SettlementService) {}

  @Get('balances')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'listBalances',
    summary: 'Outstanding balances per player and currency, across sessions (R6.6)',
    description:
      'net + paid − received over every session; positive: is owed. The house account appears as `"house"`. Every party with any entry or payment is listed, square ones too, unless `outstanding=true`.',
  })
  @ApiOkResponse({ type: BalancesDto })
  @ApiProblem(422, MONEY_READ_422)
  balances(@ClubKey() auth: KeyAuth, @Query() q: BalancesQuery) {
    return this.settlement.balances(auth, q);
  }

  @Get('players/:id/statement')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'getPlayerStatement',
    summary: "A player's money across sessions: per-session nets, payments, balance (R6.6), paged",
    description:
      "`from`/`to` select sessions by date (`startsAt`, else creation), inclusive: a `YYYY-MM-DD` day in the club's time zone or an RFC 3339 instant. The session lines are paged like every list: " +
      pageLimitText() +
      " of them, oldest first (by date, then id), and `nextCursor` to pass as `cursor` for the next page (with the same `from`/`to`); `payments` are those of the page's sessions. `totals` are the whole range's on every page (its opening, sums and closing), and `balanceMinor` the player's balance over every session (as in GET /v1/balances), whatever the page or range. A page costs its sessions, whatever the player's history.",
  })
  @ApiOkResponse({ type: PlayerStatementDto })
  @ApiProblem(404, 'No such player in this club (NOT_FOUND).')
  @ApiProblem(422, MONEY_READ_422)
  playerStatement(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Player')) id: string, @Query() q: PlayerStatementQuery) {
    return this.settlement.playerStatement(auth, id.toLowerCase(), q);
  }
}
