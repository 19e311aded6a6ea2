import 'reflect-metadata';
import { AppModule } from '../../src/app.module';
import { createLogger } from '../../src/common/logging';
import { loadConfig } from '../../src/config';
import { Db } from '../../src/db/db.service';

/** What the stub records (test/support/nest-stub.js): Inject tokens and Module metadata. */
const INJECT_TOKENS = 'service-tier:inject';
const MODULE_META = 'service-tier:module';

type Token = unknown;
type Concrete = new (...args: unknown[]) => unknown;
type Provider = Concrete | { provide: Token; useValue?: unknown; useClass?: Concrete; useExisting?: Token; useFactory?: (...args: unknown[]) => unknown; inject?: Token[] };
interface ModuleMeta {
  imports?: unknown[];
  providers?: Provider[];
}

/**
 * The service tier: the app's services and repositories built in the test's own process
 * on a real database, without HTTP (Nest's ES modules do not load in Jest, so `@nestjs/*`
 * is mapped to test/support/nest-stub.js). The providers are read from the app's own
 * module graph (AppModule.register, as main.ts builds it), and a small container stands
 * in for Nest's: a class gets its constructor's parameters by their types (TypeScript's
 * design:paramtypes) or their Inject tokens, one instance of each, built when first asked.
 * Nothing starts (no lifecycle hooks: no workers, no LISTEN), so a test gets exactly the
 * services it asks for.
 */
export class ServiceTier {
  private readonly made = new Map<Token, unknown>();
  private readonly providers = new Map<Token, Provider>();

  /** A tier on `databaseUrl` (the app's role), with `env` added to the app's environment. */
  constructor(databaseUrl: string, env: Record<string, string> = {}) {
    const config = loadConfig({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: 'service-tier-operator-token', LOG_LEVEL: 'silent', ...env });
    this.collect(AppModule.register({ config, databaseUrl, logger: createLogger(config.logLevel), offline: true }), new Set());
  }

  /** The one instance of `token` (a class or an injection token) in this tier, its dependencies built first. */
  get<T>(token: abstract new (...args: never[]) => T): T;
  get(token: Token): unknown;
  get(token: Token): unknown {
    return this.resolve(token, []);
  }

  /** Closes the database pool. */
  async close(): Promise<void> {
    if (this.made.has(Db)) await (this.made.get(Db) as Db).end();
  }

  private resolve(token: Token, path: string[]): unknown {
    if (this.made.has(token)) return this.made.get(token);
    const p = this.providers.get(token);
    if (p === undefined) throw new Error(`service tier: no module provides ${nameOf(token)} (${[...path, nameOf(token)].join(' → ')})`);
    const at = [...path, nameOf(token)];
    let value: unknown;
    if (typeof p === 'function') value = this.build(p, at);
    else if ('useValue' in p) value = p.useValue;
    else if (p.useClass) value = this.build(p.useClass, at);
    else if (p.useExisting !== undefined) value = this.resolve(p.useExisting, at);
    else if (p.useFactory) value = p.useFactory(...(p.inject ?? []).map((t) => this.resolve(t, at)));
    this.made.set(token, value);
    return value;
  }

  private build(cls: Concrete, path: string[]): unknown {
    const types = (Reflect.getMetadata('design:paramtypes', cls) ?? []) as Token[];
    const tokens = (Reflect.getOwnMetadata(INJECT_TOKENS, cls) ?? new Map()) as Map<number, Token>;
    return new cls(...types.map((type, i) => this.resolve(tokens.get(i) ?? type, path)));
  }

  /** Every provider of the module graph under `mod` (a module class or a dynamic module). */
  private collect(mod: unknown, seen: Set<unknown>): void {
    if (seen.has(mod) || mod === undefined) return;
    seen.add(mod);
    const dynamic = typeof mod === 'object' ? (mod as ModuleMeta & { module: Concrete }) : null;
    const cls = dynamic ? dynamic.module : (mod as Concrete);
    const metas = [Reflect.getOwnMetadata(MODULE_META, cls) as ModuleMeta | undefined, dynamic].filter((m) => m);
    for (const meta of metas as ModuleMeta[]) {
      for (const imported of meta.imports ?? []) this.collect(imported, seen);
      for (const p of meta.providers ?? []) this.providers.set(typeof p === 'function' ? p : p.provide, p);
    }
  }
}

const nameOf = (token: Token): string => (typeof token === 'function' ? token.name : String(token));
