/** A serialization failure or deadlock (40001, 40P01): the whole unit of work may run again. */
export function isRetryable(e: unknown): boolean {
  const err = e as { code?: string; driverError?: { code?: string } };
  const code = err?.driverError?.code ?? err?.code;
  return code === '40001' || code === '40P01';
}
