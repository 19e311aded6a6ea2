import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from './openapi';

/** The roles an API key can be created with. */
export type Role = 'owner' | 'scorer' | 'viewer';
export const ROLES: Role[] = ['owner', 'scorer', 'viewer'];
/** Every role a stored key has: the API keys' and a board link's (`board`, below a viewer: it reads only the board). */
export type KeyRole = Role | 'board';
export const KEY_ROLES: KeyRole[] = [...ROLES, 'board'];

export interface KeyAuth {
  kind: 'key';
  clubId: string;
  keyId: string;
  role: KeyRole;
}
export interface OperatorAuth {
  kind: 'operator';
}
export type Auth = KeyAuth | OperatorAuth;

export type Access = { kind: 'public' } | { kind: 'operator' } | { kind: 'role'; role: Role } | { kind: 'board' };
export const ACCESS = 'bgclub:access';

const RANK: Record<KeyRole, number> = { board: 0, viewer: 1, scorer: 2, owner: 3 };
export const roleAtLeast = (have: KeyRole, need: Role) => RANK[have] >= RANK[need];

const problemDocs = [
  ApiBearerAuth('bearer'),
  ApiProblem(401, 'No token, a bad token or a revoked key (UNAUTHENTICATED).'),
  ApiProblem(403, "The token's role is too low for this route (FORBIDDEN)."),
];

/** No token needed (health, documents). */
export const Public = () => SetMetadata(ACCESS, { kind: 'public' } satisfies Access);
/** Only the operator token from ADMIN_TOKEN. */
export const OperatorOnly = () => applyDecorators(SetMetadata(ACCESS, { kind: 'operator' } satisfies Access), ...problemDocs);
/**
 * Only a board link's token (a club key of role `board`), sent as a bearer token or, where
 * a browser cannot send a header (EventSource), as the `token` query parameter.
 */
export const BoardLinkOnly = () =>
  applyDecorators(
    SetMetadata(ACCESS, { kind: 'board' } satisfies Access),
    ApiBearerAuth('bearer'),
    ApiProblem(401, 'No token, a bad token or a revoked board link (UNAUTHENTICATED).'),
    ApiProblem(403, 'The token is not a board link (FORBIDDEN).'),
  );
/** A club API key with at least this role. */
export const MinRole = (role: Role) => applyDecorators(SetMetadata(ACCESS, { kind: 'role', role } satisfies Access), ...problemDocs);

/** The caller's club key (routes under MinRole). */
export const ClubKey = createParamDecorator((_: unknown, ctx: ExecutionContext): KeyAuth => {
  const auth = ctx.switchToHttp().getRequest<FastifyRequest & { auth?: Auth }>().auth;
  if (!auth || auth.kind !== 'key') throw new Error('ClubKey used on a route without a club key');
  return auth;
});

// Tokens -----------------------------------------------------------------------------

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * Constant-time comparison with a secret known in advance, of any length (compares
 * digests; the known secret's is computed once).
 */
export function secretMatcher(known: string): (candidate: string) => boolean {
  const digest = sha256(known);
  return (candidate) => timingSafeEqual(sha256(candidate), digest);
}

const TOKEN_RE = /^bgk_([0-9a-f]{32})([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const hex = (uuid: string) => uuid.replace(/-/g, '');
const unhex = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/**
 * A club API key: `bgk_` + club id + key id + `_` + 32 random bytes (base64url).
 * The ids let the key be found within its club; only sha256(secret) is stored.
 */
export function newApiToken(clubId: string, keyId: string): { token: string; secretHash: Buffer; hint: string } {
  const secret = randomBytes(32).toString('base64url');
  const token = `bgk_${hex(clubId)}${hex(keyId)}_${secret}`;
  return { token, secretHash: sha256(secret), hint: token.slice(-4) };
}

export function parseApiToken(token: string): { clubId: string; keyId: string; secret: string } | null {
  const m = TOKEN_RE.exec(token);
  return m ? { clubId: unhex(m[1]), keyId: unhex(m[2]), secret: m[3] } : null;
}

export function secretMatches(secret: string, stored: Buffer): boolean {
  const h = sha256(secret);
  return stored.length === h.length && timingSafeEqual(h, stored);
}
