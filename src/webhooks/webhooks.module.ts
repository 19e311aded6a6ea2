import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions';
import { WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook subscriptions (owner only), their signed delivery by the worker that runs in
 * every instance (WebhookWorker), and the delivery log. Deliveries are queued by a
 * trigger on `events` in the event's own transaction (the Events migration).
 */
@Module({
  imports: [SessionsModule],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhooksService, WebhookWorker],
  exports: [WebhooksService, WebhookWorker],
})
export class WebhooksModule {}
