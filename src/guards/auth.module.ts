import { Module } from '@nestjs/common';
import { ApiKeyCache } from './api-key-cache';
import { RateLimiter } from './rate-limiter';

/**
 * Authentication and rate limiting: what AuthGuard (registered as the app's guard by
 * the app module) needs, and the API key cache that revoking a key clears.
 */
@Module({
  providers: [RateLimiter, ApiKeyCache],
  exports: [RateLimiter, ApiKeyCache],
})
export class AuthModule {}
