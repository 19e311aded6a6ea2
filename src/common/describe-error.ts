import { inspect } from 'node:util';

/**
 * A readable line for anything that was thrown: an Error's message, or, for an Error
 * without one, its class, code and stack; a thrown value that is not an Error as it is.
 * Never the bare word "undefined".
 */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    if (e.message.trim() !== '') return e.message;
    const code = (e as { code?: unknown }).code;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a library's `code` of any type, as String() shows it
    const head = `${e.name || 'Error'} without a message${code !== undefined ? ` (code ${String(code)})` : ''}`;
    const stack = (e.stack ?? '').split('\n').slice(1).join('\n');
    return stack ? `${head}\n${stack}` : head;
  }
  if (e === undefined || e === null || e === '') return 'a failure was reported without any description (no error value came with it)';
  if (typeof e === 'string') return e;
  return inspect(e, { depth: 3, breakLength: Infinity });
}
