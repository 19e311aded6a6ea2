/** Liveness: what the rest of the app may use of src/health. */
export { HealthModule } from './health.module';
