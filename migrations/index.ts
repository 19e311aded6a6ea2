import { Skeleton1764547200000 } from './1764547200000-Skeleton';

/** Every migration, in order. Listed explicitly so compiled and ts-jest runs agree. */
export const MIGRATIONS = [Skeleton1764547200000];
