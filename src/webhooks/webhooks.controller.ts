import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import type { CommandContext } from '../common/command';
import { ApiProblem, EXAMPLE_ID } from '../common/openapi';
import { ListQuery, PAGE_LIMIT, PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import { CreatedWebhookDto, CreateWebhookDto, DeliveryAttemptDto, UpdateWebhookDto, WebhookDto } from './webhooks.dto';
import { MAX_WEBHOOKS_PER_CLUB, WebhooksService } from './webhooks.service';

const WebhookPage = PageOf(WebhookDto);
const DeliveryAttemptPage = PageOf(DeliveryAttemptDto);

const URL_422 =
  'The URL is on, or its host resolves to, a loopback, private, link-local, CGNAT, unique-local, unspecified, multicast or reserved address, and the service does not allow private targets (WEBHOOK_URL_PRIVATE); or its host name does not resolve (WEBHOOK_URL_UNRESOLVABLE).';

const DELIVERY =
  'Each event is POSTed as JSON `{ id, type, occurredAt, sessionId, subject, data }` with the Standard Webhooks headers `webhook-id` (the event id), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret), and `webhook-attempt` (1 for the first). Any 2xx is delivered; anything else, no answer within 10 s or a refused connection is tried again with exponential backoff (the first retry within 10 s, 8 attempts over about 27 h) while the subscription is enabled; 410 Gone disables it. At least once, in the order of the log per subscription as far as retries allow.';

@ApiTags('Webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @MinRole('owner')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to the club’s events',
    description: `Answers the subscription with its signing \`secret\`, shown only here. ${DELIVERY} A club has at most ${MAX_WEBHOOKS_PER_CLUB} subscriptions.`,
  })
  @ApiBody({
    type: CreateWebhookDto,
    examples: {
      scoreboard: {
        summary: 'Finished games and payments to the club website',
        value: { url: 'https://scores.example/hooks/backgammon', types: ['game.finished', 'payment.recorded'], description: 'Club website scoreboard' },
      },
      everything: { summary: "Every event of one session's evening", value: { url: 'https://relay.example/bgclub/events', sessionId: EXAMPLE_ID.session } },
    },
  })
  @ApiCreatedResponse({ type: CreatedWebhookDto })
  @ApiProblem(422, `${URL_422} The club has ${MAX_WEBHOOKS_PER_CLUB} subscriptions already (WEBHOOK_LIMIT_REACHED). \`sessionId\` names no session of this club (REFERENCE_NOT_FOUND).`)
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateWebhookDto) {
    return this.webhooks.create(cmd, auth, dto);
  }

  @Get()
  @MinRole('owner')
  @ApiOperation({ operationId: 'listWebhooks', summary: "List the club's webhook subscriptions, oldest first (never their secrets)" })
  @ApiOkResponse({ type: WebhookPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: ListQuery) {
    return this.webhooks.list(auth, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }

  @Get(':id')
  @MinRole('owner')
  @ApiOperation({ operationId: 'getWebhook', summary: 'One webhook subscription (never its secret)' })
  @ApiOkResponse({ type: WebhookDto })
  @ApiProblem(404, 'No such webhook in this club (NOT_FOUND).')
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Webhook')) id: string) {
    return this.webhooks.get(auth, id);
  }

  @Patch(':id')
  @MinRole('owner')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Change a webhook subscription (If-Match honoured)',
    description: 'Change its URL, the types of event it receives or its description, or disable and enable it: enabling clears `disabledReason`.',
  })
  @ApiBody({
    type: UpdateWebhookDto,
    examples: {
      disable: { summary: 'Pause deliveries while the receiver is down', value: { enabled: false } },
      enable: { summary: 'Deliver again, the waiting deliveries first', value: { enabled: true } },
      retarget: { summary: 'A new URL, every type of event, no description', value: { url: 'https://scores.example/hooks/v2', types: null, description: null } },
    },
  })
  @ApiOkResponse({ type: WebhookDto })
  @ApiProblem(404, 'No such webhook in this club (NOT_FOUND).')
  @ApiProblem(412, 'If-Match does not name the current version (VERSION_MISMATCH).')
  @ApiProblem(422, URL_422)
  update(
    @Command() cmd: CommandContext,
    @ClubKey() auth: KeyAuth,
    @Param('id', new UuidParam('Webhook')) id: string,
    @IfMatch() ifMatch: number | '*' | undefined,
    @Body() dto: UpdateWebhookDto,
  ) {
    return this.webhooks.update(cmd, auth, id, ifMatch, dto);
  }

  @Delete(':id')
  @MinRole('owner')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook subscription, its pending deliveries and its delivery log' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblem(404, 'No such webhook in this club (NOT_FOUND).')
  remove(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Webhook')) id: string) {
    return this.webhooks.remove(cmd, auth, id);
  }

  @Get(':id/deliveries')
  @MinRole('owner')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's delivery log, newest attempt first",
    description: 'Every attempt to send an event to it, kept 30 days: the event, the attempt number, the outcome, the answer’s status or what went wrong, and when it is tried again.',
  })
  @ApiOkResponse({ type: DeliveryAttemptPage })
  @ApiProblem(404, 'No such webhook in this club (NOT_FOUND).')
  deliveries(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Webhook')) id: string, @Query() q: ListQuery) {
    return this.webhooks.deliveries(auth, id, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }

  @Post(':id/test')
  @MinRole('owner')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a webhook.test event now',
    description:
      'Sends `{ id, type: "webhook.test", occurredAt, sessionId: null, subject: { kind: "webhook", id }, data: <the subscription> }`, signed like every delivery, once, even while the subscription is disabled, and answers the attempt (also in its delivery log). Its id starts with `test_`: it is no position in the event log. A 410 Gone disables the subscription.',
  })
  @ApiOkResponse({ type: DeliveryAttemptDto })
  @ApiProblem(404, 'No such webhook in this club (NOT_FOUND).')
  test(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Webhook')) id: string) {
    return this.webhooks.test(cmd, auth, id);
  }
}
