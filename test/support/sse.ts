import { ClientRequest, IncomingMessage, request } from 'node:http';
import { recordExchange } from './contract';

/** One server-sent event frame as a client reads it: its fields (the last of each wins; data lines joined). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

/**
 * A text/event-stream client on node's http module that parses the frames itself (no
 * EventSource): every frame, every comment line, and how the stream ended.
 */
export class SseClient {
  readonly frames: SseFrame[] = [];
  readonly comments: string[] = [];
  /** Bytes received so far. */
  received = 0;
  /** 'end': the server ended the response; 'aborted': the connection went without an end; null: still open. */
  ending: 'end' | 'aborted' | null = null;
  private buffer = '';
  private readonly waiters: Array<() => boolean> = [];

  private constructor(
    private readonly req: ClientRequest,
    readonly res: IncomingMessage,
  ) {
    res.setEncoding('utf8');
    // The answer is held against the OpenAPI document (contract.ts): a stream by its status
    // and content type, any other answer (a problem) with its body once it has ended.
    const exchange = { method: req.method, url: req.path, status: res.statusCode ?? 0, headers: res.headers };
    if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) recordExchange(exchange);
    else res.on('end', () => recordExchange({ ...exchange, body: this.buffer }));
    res.on('data', (chunk: string) => {
      this.received += Buffer.byteLength(chunk);
      this.buffer += chunk;
      this.parse();
      this.notify();
    });
    res.on('end', () => {
      this.ending ??= 'end';
      this.notify();
    });
    res.on('aborted', () => {
      this.ending ??= 'aborted';
      this.notify();
    });
    res.on('close', () => {
      this.ending ??= 'aborted';
      this.notify();
    });
    res.on('error', () => undefined);
  }

  /** Opens `path` on `baseUrl` and answers once the response's headers are in (any status). */
  static open(baseUrl: string, path: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, baseUrl), { headers: { accept: 'text/event-stream', ...headers } });
      req.on('response', (res) => resolve(new SseClient(req, res)));
      req.on('error', reject);
      req.end();
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** The frames that carry an event (data), in order. */
  get events(): Array<{ id: string; event: string; data: Record<string, unknown> & { id: string; type: string } }> {
    return this.frames
      .filter((f) => f.data !== undefined)
      .map((f) => ({ id: f.id ?? '', event: f.event ?? 'message', data: JSON.parse(f.data!) as Record<string, unknown> & { id: string; type: string } }));
  }

  /** The last id the stream gave (an event's, or an `id:` line alone), as EventSource keeps it. */
  get lastId(): string | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) if (this.frames[i].id !== undefined) return this.frames[i].id;
    return undefined;
  }

  /** The body when the answer is not a stream (a problem). */
  async body(): Promise<string> {
    await this.until(() => this.ending !== null, 10000, 'the end of the answer');
    return this.buffer;
  }

  /** Waits until `ok()` holds (checked whenever something arrives), or fails after `ms`. */
  until(ok: () => boolean, ms: number, what: string): Promise<void> {
    if (ok()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(check);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`timed out after ${ms} ms waiting for ${what} (${this.events.length} events, ${this.comments.length} comments, ending ${this.ending})`));
      }, ms);
      const check = () => {
        if (!ok()) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      this.waiters.push(check);
    });
  }

  /** Stops reading: what the server sends piles up in its buffers. */
  pause(): void {
    this.res.pause();
  }

  resume(): void {
    this.res.resume();
  }

  /** Goes away (closes the connection). */
  close(): void {
    this.req.destroy();
    this.res.destroy();
  }

  private notify(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) if (this.waiters[i]()) this.waiters.splice(i, 1);
  }

  private parse(): void {
    // Only frames of a stream; a problem+json answer is kept whole for body().
    if (!String(this.res.headers['content-type'] ?? '').startsWith('text/event-stream')) return;
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame: SseFrame = {};
      let fields = 0;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
        else if (name === 'id' || name === 'event' || name === 'retry') frame[name] = value;
        else continue;
        fields++;
      }
      if (fields > 0) this.frames.push(frame);
    }
  }
}
