import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ErrorCode, statusOf } from '../../src/common/error-codes';
import { matching, ROOT, sourceFiles } from '../support/source-lines';

const SRC = join(ROOT, 'src');
const sources = (dir: string) => sourceFiles(dir, { specs: false });

const outsideDomain = () => sources(SRC).filter((f) => !relative(SRC, f).startsWith('domain'));
const services = () => sources(SRC).filter((f) => f.endsWith('.service.ts'));

/**
 * Where the HTTP layer names a rule without deciding it: the database's CHECK on each
 * party's money (R6.2) refused the write, and the renderer answers it with the domain's code.
 */
const RENDERED_NOT_DECIDED = ['src/common/problem.ts'];

/**
 * A branch on a table's kind: `kind ===`/`!==` (or `==`) against one of the kinds, either
 * way round, or a `case` on one. A service dispatches through the engine of the kind
 * (src/tables/engines: engineFor) instead.
 */
const KIND_BRANCH = /\bkind\s*[!=]==?\s*'(match|money|chouette)'|'(match|money|chouette)'\s*[!=]==?\s*[\w.]*\bkind\b|\bcase\s+'(match|money|chouette)'\s*:/;

/**
 * Money arithmetic: a bigint made or written (`BigInt(`, a literal such as `0n`), or an
 * operator next to a money field (a name ending in `Minor`, amounts in minor units, or
 * `Bp`, a rate in basis points: a rake percentage). Services pass such values along;
 * sums, differences and percentages are the domain's (R6.4, R6.6). Comparisons
 * (`===`, `<`) and plain assignment are not arithmetic.
 */
const MONEY_ARITHMETIC = /\bBigInt\(|\b\d+n\b|\b\w*(Minor|Bp)\b\s*(\+|-|\*|\/|%)(?![=>])|(?<![=!<>])(\+|-|\*|\/|%)=?\s*[\w.]*(Minor|Bp)\b(?!\s*:)/;

/**
 * The 422 refusals a service raises itself, which are not rules of the rule book but
 * checks of the HTTP layer on things outside the game: the webhook address policy, the
 * club's last owner key, a match the .mat format cannot hold, a key reused with another
 * request, a reference to something of another club.
 */
const HTTP_LAYER_422: readonly ErrorCode[] = [
  ErrorCode.WEBHOOK_URL_PRIVATE,
  ErrorCode.WEBHOOK_URL_UNRESOLVABLE,
  ErrorCode.WEBHOOK_LIMIT_REACHED,
  ErrorCode.LAST_OWNER_KEY,
  ErrorCode.EXPORT_NOT_POSSIBLE,
  ErrorCode.IDEMPOTENCY_KEY_REUSED,
  ErrorCode.REFERENCE_NOT_FOUND,
];

/** An ApiError (or field errors) a service raises with a code answered 422 that is not one of HTTP_LAYER_422. */
function raises422(line: string): boolean {
  return [...line.matchAll(/(?:new ApiError|fieldErrors)\(\s*ErrorCode\.(\w+)/g)].some((m) => {
    const code = ErrorCode[m[1] as keyof typeof ErrorCode];
    return code !== undefined && statusOf(code) === 422 && !HTTP_LAYER_422.includes(code);
  });
}

/** The edge: where HTTP statuses and replays are answered (src/common, src/commands). */
const outsideEdge = () => sources(SRC).filter((f) => !/^(common|commands)\//.test(relative(SRC, f).split('\\').join('/')));

/** A replay named: `Replayed`, `ReplayedAnswer` (the header `Idempotent-Replayed` is not one). */
const NAMES_REPLAY = /(?<![\w-])Replayed\w*/;

/** `commands.run(ctx, <status>, …)`: a number, or a name saying status, as its second argument (across lines). */
const RUN_WITH_STATUS = /\bcommands\.run\(\s*[\w.]+\s*,\s*(?:\d+|[\w.]*[sS]tatus\b)/g;

/** Every `commands.run` with a status of its own, where it is. */
function runsWithStatus(files: string[]): string[] {
  return files.flatMap((f) => {
    const text = readFileSync(f, 'utf8');
    return [...text.matchAll(RUN_WITH_STATUS)].map((m) => `${relative(ROOT, f)}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
  });
}

describe('HTTP stays at the edge', () => {
  it('no file outside src/common and src/commands names a replay: a replay never travels through a service', () => {
    const files = outsideEdge();
    expect(files.length).toBeGreaterThan(50);
    // Comments too: a replay is named nowhere outside the edge.
    expect(matching(files, (line) => NAMES_REPLAY.test(line), { comments: true })).toEqual([]);
  });

  it("no service passes a status to commands.run: the success status is the route's", () => {
    const files = outsideEdge();
    // The check sees the calls at all: there are dozens of them.
    const calls = files.reduce((n, f) => n + (readFileSync(f, 'utf8').match(/\bcommands\.run\(/g)?.length ?? 0), 0);
    expect(calls).toBeGreaterThan(30);
    expect(runsWithStatus(files)).toEqual([]);
  });

  describe('the checks themselves', () => {
    it.each([
      ["import { CommandContext, Replayed } from '../common/command';", true],
      ['return done instanceof Replayed ? done : undefined;', true],
      ['throw new ReplayedAnswer(prior.status, body);', true],
      ['// A replay is marked as one (Idempotent-Replayed); a fresh one answers no body.', false],
      ["reply.header('idempotent-replayed', 'true');", false],
    ])('names a replay: %s → %s', (line, found) => {
      expect(NAMES_REPLAY.test(line)).toBe(found);
    });

    it.each([
      ['return this.commands.run(cmd, 201, async (tx) => {', 1],
      ['return this.commands.run(cmd, status, async (tx) => {', 1],
      ['return this.commands.run(\n      cmd,\n      204,\n      async (tx) => {', 1],
      ['return this.commands.run(cmd, async (tx) => {', 0],
      ['return this.commands.run(cmd, (tx) => this.forfeitIn(tx, auth, id, ifMatch, dto));', 0],
    ])('a status passed to commands.run: %s → %s', (text, count) => {
      expect([...text.matchAll(RUN_WITH_STATUS)]).toHaveLength(count);
    });
  });
});

describe('decisions in the domain', () => {
  it('refusals by the rules are decided in src/domain only: services and repositories call its functions', () => {
    const files = outsideDomain().filter((f) => !RENDERED_NOT_DECIDED.includes(relative(ROOT, f)));
    expect(matching(files, (line) => /\brefuse\(|new RuleViolation\(|\{ rule: '/.test(line))).toEqual([]);
  });

  it('no service raises a 422 of its own: the rules refuse through the domain', () => {
    expect(matching(services(), raises422)).toEqual([]);
  });

  it('no service branches on the kind of a table: each kind has its engine', () => {
    expect(matching(services(), (line) => KIND_BRANCH.test(line))).toEqual([]);
  });

  it("no service does money arithmetic: rake, postings, reversals and balances are the domain's", () => {
    expect(matching(services(), (line) => MONEY_ARITHMETIC.test(line))).toEqual([]);
  });

  describe('the checks themselves', () => {
    it.each([
      ["if (t.kind === 'chouette') {", true],
      ["played.kind !== 'match' ? a : b", true],
      ["'money' === table.kind", true],
      ["case 'chouette':", true],
      ["if (latest.kind === 'penalty') {", false],
      ["change.kind === 'ended'", false],
    ])('a branch on a table kind: %s → %s', (line, found) => {
      expect(KIND_BRANCH.test(line)).toBe(found);
    });

    it.each([
      ['outstandingMinor: minorFromDb(BigInt(net) + BigInt(paid) - BigInt(received)),', true],
      ['const rake = (netMinor * rakeBp) / 10000;', true],
      ['total.amountMinor += e.amountMinor;', true],
      ['if (balance !== 0n) continue;', true],
      ['const opening = balance - closingMinor;', true],
      ['amountMinor: minorFromDb(p.amountMinor),', false],
      ['rakeBp: session?.rakeBp ?? 0,', false],
      ['const stakeMinor = stakeOf(t);', false],
      ['t.nextGameNo - 1', false],
      ['if (stakeMinor === null) return;', false],
    ])('money arithmetic: %s → %s', (line, found) => {
      expect(MONEY_ARITHMETIC.test(line)).toBe(found);
    });

    it('a 422 is found by its code', () => {
      expect(raises422("throw new ApiError(ErrorCode.VALIDATION_FAILED, 'x');")).toBe(false);
      expect(raises422("throw new ApiError(ErrorCode.LAST_OWNER_KEY, 'x');")).toBe(false);
    });
  });
});
