import { ApiKeyEntity } from './clubs/api-key.entity';
import { ClubEntity } from './clubs/club.entity';
import { IdempotencyKeyEntity, OperatorIdempotencyKeyEntity } from './common/idempotency.entity';
import { PlayerEntity } from './players/player.entity';
import { SessionEntity } from './sessions/session.entity';
import { LedgerEntryEntity } from './ledger/ledger-entry.entity';
import { PartyVolumeEntity } from './ledger/party-volume.entity';
import { SessionTotalEntity } from './ledger/session-total.entity';
import { PartySessionEntity } from './ledger/party-session.entity';
import { TableNetEntity } from './ledger/table-net.entity';
import { PaymentEntity } from './payments/payment.entity';
import { PlayerStatEntity } from './player-stats/player-stat.entity';
import { ReadModelRebuildEntity } from './player-stats/read-model-rebuild.entity';
import { AuditEntryEntity, AuthRateCounterEntity, RateLimitCounterEntity } from './guards/guards.entities';
import { GameEntity, TableEntity, TablePlayerEntity } from './tables/table.entity';
import { TeamEventBoardEntity, TeamEventEntity } from './team-events/team-event.entity';
import { BoardLinkEntity } from './boards/board-link.entity';
import { TournamentEntity } from './tournaments/tournament.entity';
import { EventEntity, WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEntity } from './outbox/event.entity';

/** Every entity; a test checks them against the schema the migrations build. */
export const ENTITIES = [
  ClubEntity,
  ApiKeyEntity,
  PlayerEntity,
  SessionEntity,
  IdempotencyKeyEntity,
  OperatorIdempotencyKeyEntity,
  TableEntity,
  TablePlayerEntity,
  GameEntity,
  LedgerEntryEntity,
  PaymentEntity,
  RateLimitCounterEntity,
  AuthRateCounterEntity,
  AuditEntryEntity,
  SessionTotalEntity,
  PartySessionEntity,
  PartyVolumeEntity,
  TableNetEntity,
  PlayerStatEntity,
  ReadModelRebuildEntity,
  TeamEventEntity,
  TeamEventBoardEntity,
  TournamentEntity,
  BoardLinkEntity,
  EventEntity,
  WebhookEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
];

/** Tables that belong to no club (checked by the tenancy catalog test). */
export const GLOBAL_TABLES = ['clubs', 'operator_idempotency_keys', 'auth_rate_counters', 'migrations'];
