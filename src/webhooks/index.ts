/** Webhooks: what the rest of the app may use of src/webhooks. */
export { WebhooksModule } from './webhooks.module';
export { WebhooksService } from './webhooks.service';
