import { createHash } from 'node:crypto';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { FastifyRequest } from 'fastify';
import type { CommandContext } from './command';
import { ApiError } from './api-error';
import { clientRequestIdOf } from './request-id';
import type { Auth } from './auth';
import { ErrorCode } from './error-codes';
import { replayKey } from './replay-seal';

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * The status a route answers on success, as Nest answers it: its `@HttpCode`, else 201
 * for POST and 200 for every other method.
 */
export function successStatusOf(handler: object, method: string): number {
  const code: unknown = Reflect.getMetadata(HTTP_CODE_METADATA, handler);
  if (typeof code === 'number') return code;
  return method === 'POST' ? 201 : 200;
}

/** The context a command runs in: the caller, its Idempotency-Key if any, and the status its route answers on success. */
export const Command = createParamDecorator((_: unknown, ctx: ExecutionContext): CommandContext => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest & { auth?: Auth }>();
  if (!req.auth) throw new Error('Command used on a public route');
  const successStatus = successStatusOf(ctx.getHandler(), req.method);
  const audit = {
    method: req.method,
    route: req.routeOptions?.url ?? req.url.split('?')[0],
    path: req.url.split('?')[0],
    requestId: typeof req.id === 'string' ? req.id : null,
    clientRequestId: clientRequestIdOf(req),
    body: req.body ?? null,
  };
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return { auth: req.auth, idempotency: null, audit, successStatus };
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_RE.test(key)) {
    throw new ApiError(ErrorCode.INVALID_IDEMPOTENCY_KEY, 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  const path = req.url.split('?')[0];
  const requestHash = createHash('sha256')
    .update(`${req.method} ${path}\n${canonicalJson(req.body ?? null)}`)
    .digest('hex');
  // The stored answer is sealed under the caller's own token (replay-seal.ts); the guard has checked it.
  const token = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
  return { auth: req.auth, idempotency: { key, requestHash, sealKey: replayKey(token, key, req.method, path) }, audit, successStatus };
});

/**
 * The version an If-Match header asks for: a number, '*' (any) or undefined when
 * absent. `"3"`, `W/"3"` and `3` are all read as 3; anything else never matches.
 */
export const IfMatch = createParamDecorator((_: unknown, ctx: ExecutionContext): number | '*' | undefined => {
  const raw = ctx.switchToHttp().getRequest<FastifyRequest>().headers['if-match'];
  if (raw === undefined) return undefined;
  const v = String(raw).trim();
  if (v === '*') return '*';
  const m = /^(?:W\/)?"?(\d{1,9})"?$/.exec(v);
  return m ? Number(m[1]) : -1;
});

export function checkVersion(ifMatch: number | '*' | undefined, current: number): void {
  if (ifMatch === undefined || ifMatch === '*') return;
  if (ifMatch !== current) {
    throw new ApiError(ErrorCode.VERSION_MISMATCH, `If-Match asked for version ${ifMatch < 0 ? '(unreadable)' : ifMatch}, but the current version is ${current}.`);
  }
}
