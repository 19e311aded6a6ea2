/** Authentication and rate limiting: what the rest of the app may use of src/guards. */
export { AuthModule } from './auth.module';
export { AuthGuard } from './auth.guard';
export { RateLimiter } from './rate-limiter';
export { API_KEY_CHANNEL, ApiKeyCache } from './api-key-cache';
