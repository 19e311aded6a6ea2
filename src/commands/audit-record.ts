import type { CommandContext } from '../common/command';
import { uuid7 } from '../common/uuid';
import type { Tx } from '../db/tx';

/** The audit record (who did what), written with the command's own COMMIT. */
export function recordAudit(tx: Tx, ctx: CommandContext, status: number): void {
  const a = ctx.audit;
  const clubId = ctx.auth.kind === 'key' ? ctx.auth.clubId : a?.clubId;
  if (!a || !clubId) return;
  tx.defer({
    what: 'audit record',
    text: `INSERT INTO audit_log (club_id, id, actor, api_key_id, method, route, path, status, request_id, client_request_id, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    values: [
      clubId,
      uuid7(),
      ctx.auth.kind,
      ctx.auth.kind === 'key' ? ctx.auth.keyId : null,
      a.method,
      a.route,
      a.path,
      status,
      a.requestId,
      a.clientRequestId,
      a.body === undefined ? null : JSON.stringify(a.body),
    ],
  });
}
