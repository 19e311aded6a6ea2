import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { CONFIG } from '../config.provider';
import type { AppConfig } from '../config';
import { Inject } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { clientAddress } from '../common/client-address';
import { Access, ACCESS, Auth, parseApiToken, roleAtLeast, secretMatcher, secretMatches } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { RateLimiter, RateVerdict } from './rate-limiter';
import { ApiKeyCache } from './api-key-cache';
import type { FastifyReply } from 'fastify';

/** The `token` query parameter, when it is one string. */
const queryToken = (req: FastifyRequest): string | null => {
  const t = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof t === 'string' && t.length > 0 ? t : null;
};

const unauthenticated = (detail: string) => new ApiError(ErrorCode.UNAUTHENTICATED, detail, { headers: { 'www-authenticate': 'Bearer' } });

const tooManyFailures = (verdict: RateVerdict) =>
  new ApiError(ErrorCode.RATE_LIMITED, `Too many failed authentications from this address; retry after ${verdict.headers['retry-after']} s.`, {
    headers: verdict.headers,
  });

/**
 * Authenticates every request: the operator token (ADMIN_TOKEN) or a club API key.
 * Routes without an explicit access rule need a viewer key to read and a scorer
 * key to write.
 *
 * Every failed authentication is counted against the client's address (the socket's:
 * Fastify's trustProxy is off; an IPv6 client by its /64); past AUTH_FAILURE_LIMIT in
 * a window the address gets 429 instead of 401 until the window ends, and the operator
 * token is not accepted from it either (it is the one token that may be short enough
 * to guess). A valid
 * club key keeps working from such an address: its 256-bit secret cannot be guessed,
 * and clients sharing the address (behind one NAT) are not locked out by one bad one.
 * The operator token is counted on its own (OPERATOR_RATE_LIMIT).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** The operator token's digest is computed once, not per request. */
  private readonly isOperatorToken: (token: string) => boolean;
  /** Whether ADMIN_TOKEN has the shape of a club key (then a key-shaped token may be it). */
  private readonly operatorTokenIsKeyShaped: boolean;

  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly limiter: RateLimiter,
    private readonly keys: ApiKeyCache,
  ) {
    this.isOperatorToken = secretMatcher(config.adminToken);
    this.operatorTokenIsKeyShaped = parseApiToken(config.adminToken) !== null;
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest & { auth?: Auth }>();
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [ctx.getHandler(), ctx.getClass()]) ?? {
      kind: 'role',
      role: req.method === 'GET' || req.method === 'HEAD' ? 'viewer' : 'scorer',
    };
    if (access.kind === 'public') return true;

    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    // A board link may come in the query (EventSource sends no header); nowhere else may a token.
    const inQuery = access.kind === 'board' && !m ? queryToken(req) : null;
    if (!m && inQuery === null) throw await this.refused(req, 'Send an API key as "Authorization: Bearer <token>".');
    const token = m ? m[1] : (inQuery as string);

    const parsed = parseApiToken(token);
    // A club key's token cannot be the operator's unless the operator's has a key's shape:
    // its digest is then not needed (one hash per request, the key's own).
    if ((parsed === null || this.operatorTokenIsKeyShaped) && this.isOperatorToken(token)) {
      const exhausted = await this.limiter.failuresExhausted(clientAddress(req.ip));
      if (exhausted) throw tooManyFailures(exhausted);
      const verdict = await this.limiter.countOperator();
      if (access.kind !== 'operator') {
        throw new ApiError(ErrorCode.FORBIDDEN, 'The operator token only creates clubs; use a club API key here.');
      }
      if (verdict?.limited) {
        throw new ApiError(
          ErrorCode.RATE_LIMITED,
          `The operator token sent more than ${this.config.operatorRateLimit} requests in ${this.config.rateLimitWindowSeconds} s; retry after ${verdict.headers['retry-after']} s.`,
          {
            headers: verdict.headers,
          },
        );
      }
      if (verdict) ctx.switchToHttp().getResponse<FastifyReply>().headers(verdict.headers);
      req.auth = { kind: 'operator' };
      return true;
    }

    if (!parsed) throw await this.refused(req, 'The token is not a valid API key.');
    // The key's record (cached while revocations can reach this instance: ApiKeyCache).
    const key = await this.keys.get(parsed.clubId, parsed.keyId);
    if (!key || key.revokedAt !== null || !secretMatches(parsed.secret, key.secretHash)) {
      throw await this.refused(req, 'The API key is unknown or has been revoked.');
    }
    // Counted once the key is known to be good, whatever the route then allows.
    const verdict = await this.limiter.count(parsed.clubId, parsed.keyId);
    if (access.kind === 'operator') {
      throw new ApiError(ErrorCode.FORBIDDEN, 'Only the operator token may do this.');
    }
    if (access.kind === 'board') {
      if (key.role !== 'board') throw new ApiError(ErrorCode.FORBIDDEN, 'This route answers a board link (POST /v1/boards); this key is not one.');
    } else if (key.role === 'board') {
      throw new ApiError(ErrorCode.FORBIDDEN, 'A board link reads only its board (GET /v1/board and its stream).');
    } else if (!roleAtLeast(key.role, access.role)) {
      throw new ApiError(ErrorCode.FORBIDDEN, `This needs a key with the ${access.role} role; this key is a ${key.role} key.`);
    }
    req.auth = { kind: 'key', clubId: parsed.clubId, keyId: parsed.keyId, role: key.role };
    if (verdict) {
      if (verdict.limited) {
        throw new ApiError(
          ErrorCode.RATE_LIMITED,
          `This API key sent more than ${this.config.rateLimit} requests in ${this.config.rateLimitWindowSeconds} s; retry after ${verdict.headers['retry-after']} s.`,
          {
            headers: verdict.headers,
          },
        );
      }
      ctx.switchToHttp().getResponse<FastifyReply>().headers(verdict.headers);
    }
    return true;
  }

  /**
   * A failed authentication: counted against the client's address, and answered 401,
   * or 429 once the address is over AUTH_FAILURE_LIMIT. If the count cannot be taken
   * (database trouble) the refusal is still a 401.
   */
  private async refused(req: FastifyRequest, detail: string): Promise<ApiError> {
    const verdict = await this.limiter.countFailure(clientAddress(req.ip)).catch(() => null);
    return verdict?.limited ? tooManyFailures(verdict) : unauthenticated(detail);
  }
}
