import { lookup } from 'node:dns/promises';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { AddressRefusal, classifyAddress, ipLiteralOf } from './address-policy';
import { AttemptOutcome, boundedErrorText, outcomeOfStatus } from './retry-schedule';

/** The longest one attempt may take, name lookup, connection and answer included (the HTTP contract: 10 s). */
export const SEND_TIMEOUT_MS = 10_000;
/** How much of a refusing answer's body is read, for the log's error text. */
export const MAX_RESPONSE_BYTES = 4096;
/** The longest a name lookup may take when a subscription is created or changed. */
export const CHECK_LOOKUP_TIMEOUT_MS = 3000;
/** At most this many of a name's addresses are tried, in the order the resolver gave them. */
const MAX_ADDRESSES_TRIED = 4;

/** Where a URL may be sent, or why not. */
export type TargetCheck = { ok: true; addresses: string[] } | { ok: false; reason: 'private'; message: string } | { ok: false; reason: 'unresolvable'; message: string };

/** Resolves a host name to its addresses (every one, in the resolver's order). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 100) / 10} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const refusal = (host: string, address: string, why: AddressRefusal) => (host === address ? `${address} is a ${why} address` : `${host} resolves to ${address}, a ${why} address`);

/**
 * The addresses a URL's host stands for, each checked against the address policy
 * (address-policy.ts) unless private targets are allowed. A name that resolves to any
 * refused address is refused altogether: which of its addresses a client ends up on is
 * not the service's choice. The addresses answered are the ones to connect to: the
 * delivery never looks the name up a second time.
 */
export async function checkTarget(url: URL, allowPrivate: boolean, resolve: Resolver, timeoutMs: number): Promise<TargetCheck> {
  const literal = ipLiteralOf(url.hostname);
  let addresses: string[];
  if (literal !== null) {
    addresses = [literal];
  } else {
    try {
      addresses = await withTimeout(resolve(url.hostname), timeoutMs, `looking up ${url.hostname}`);
    } catch (e) {
      const code = (e as { code?: string }).code;
      return { ok: false, reason: 'unresolvable', message: `${url.hostname} could not be resolved (${code ?? (e as Error).message})` };
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable', message: `${url.hostname} has no address` };
  }
  if (!allowPrivate) {
    for (const a of addresses) {
      const why = classifyAddress(a);
      if (why !== null) return { ok: false, reason: 'private', message: refusal(literal ?? url.hostname, a, why) };
    }
  }
  return { ok: true, addresses };
}

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
  /** Aborts the attempt (the instance is stopping). */
  signal?: AbortSignal;
  resolve?: Resolver;
  timeoutMs?: number;
}

export interface SendResult {
  outcome: AttemptOutcome;
  responseStatus: number | null;
  error: string | null;
}

const failed = (error: string, responseStatus: number | null = null): SendResult => ({ outcome: 'failed', responseStatus, error: boundedErrorText(error) });

/** Errors of a connection that never reached the receiver: the next address may be tried. */
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * One POST of a webhook: the host's addresses are checked (checkTarget) and the request
 * goes to a checked address, never to a second lookup of the name (TLS still verifies
 * the certificate for the name). Redirects are not followed. Any 2xx is delivered, 410
 * is gone, anything else (another status, a refused connection, no answer within 10 s)
 * failed. Of a refusing answer's body at most MAX_RESPONSE_BYTES are read, for the error
 * text; a 2xx body is not read at all.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const timeoutMs = req.timeoutMs ?? SEND_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return failed('the URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return failed(`the URL's scheme ${url.protocol} is not http or https`);
  const target = await checkTarget(url, req.allowPrivate, req.resolve ?? systemResolver, Math.max(1, deadline - Date.now()));
  if (!target.ok) return failed(target.reason === 'private' ? `refused: ${target.message} (WEBHOOK_ALLOW_PRIVATE is off)` : target.message);
  let last: SendResult = failed('no address to connect to');
  for (const address of target.addresses.slice(0, MAX_ADDRESSES_TRIED)) {
    const left = deadline - Date.now();
    if (left <= 0) return failed(`no answer within ${timeoutMs / 1000} s`);
    const { result, connectFailed } = await postOnce(url, address, req, left, timeoutMs);
    if (!connectFailed) return result;
    last = result;
  }
  return last;
}

function postOnce(url: URL, address: string, req: SendRequest, leftMs: number, timeoutMs: number): Promise<{ result: SendResult; connectFailed: boolean }> {
  return new Promise((done) => {
    let settled = false;
    const finish = (result: SendResult, connectFailed = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      done({ result, connectFailed });
    };
    const https_ = url.protocol === 'https:';
    const port = url.port ? Number(url.port) : https_ ? 443 : 80;
    const options: https.RequestOptions = {
      host: address,
      port,
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      headers: { ...req.headers, host: url.host, 'content-length': String(Buffer.byteLength(req.body)) },
      agent: false,
    };
    // TLS: the name is sent (SNI) and the certificate is verified for it, not for the address.
    if (https_ && ipLiteralOf(url.hostname) === null) options.servername = url.hostname;
    const request = (https_ ? https : http).request(options, (res) => onResponse(res));
    const timer = setTimeout(() => finish(failed(`no answer within ${timeoutMs / 1000} s`)), leftMs);
    const onAbort = () => finish(failed('abandoned: the instance stopped before the answer came'));
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });

    const onResponse = (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const outcome = outcomeOfStatus(status);
      if (outcome === 'delivered') return finish({ outcome, responseStatus: status, error: null });
      const chunks: Buffer[] = [];
      let size = 0;
      const report = () => {
        const text = Buffer.concat(chunks)
          .subarray(0, MAX_RESPONSE_BYTES)
          .toString('utf8')
          .replace(/\uFFFD+$/, '');
        const head = outcome === 'gone' ? `HTTP 410 Gone: the subscription is disabled` : `HTTP ${status}`;
        finish({ outcome, responseStatus: status, error: boundedErrorText(text.trim() ? `${head}: ${text}` : head) });
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size >= MAX_RESPONSE_BYTES) report();
      });
      res.on('end', report);
      res.on('error', report);
      res.on('close', report);
    };
    request.on('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? '';
      if (code === 'ECONNREFUSED') return finish(failed(`connection refused by ${address}:${port}`), true);
      finish(failed(code && !e.message.includes(code) ? `${code}: ${e.message}` : e.message), CONNECT_ERRORS.has(code));
    });
    request.end(req.body);
  });
}
