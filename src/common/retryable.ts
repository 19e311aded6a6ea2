import { sqlStateOf } from './db-failures';

/** A serialization failure or deadlock (40001, 40P01): the whole unit of work may run again. */
export function isRetryable(e: unknown): boolean {
  const code = sqlStateOf(e);
  return code === '40001' || code === '40P01';
}
