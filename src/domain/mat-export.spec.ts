import { expectRefusal } from './test-helpers';
import { assertMatExportable, MatExportError, MatGame, MatGameAction, MatMatch, OPENING_POSITION_XG, renderMat, sanitizeName, SET_OPENING_POSITION } from './mat-export';

/** n blanks: the expected texts below count their columns by hand. */
const sp = (n: number): string => ' '.repeat(n);

const double = (side: 0 | 1, value?: number): MatGameAction => ({ type: 'double', side, ...(value ? { value } : {}) });
const take = (side: 0 | 1): MatGameAction => ({ type: 'take', side });
const pass = (side: 0 | 1): MatGameAction => ({ type: 'pass', side });

function game(gameNo: number, scoreBefore: [number, number], actions: MatGameAction[], winnerSide: 0 | 1, points: number, extra: Partial<MatGame> = {}): MatGame {
  return { gameNo, scoreBefore, crawford: false, actions, winnerSide, points, matchOver: false, ...extra };
}

/**
 * A 5-point match: Anna & Ben (a pair, side 0) against "Carl: the\nGreat, 2" (a name
 * the format cannot hold as it is).
 *   1. 0-0  side 0 doubles to 2, side 1 takes, side 0 wins a single game: 2 points
 *   2. 2-0  side 1 doubles to 2, side 0 passes: side 1 wins 1
 *   3. 2-1  no cube; side 0 wins a gammon: 2
 *   4. 4-1  the Crawford game; side 1 wins 1 (4-2), then a penalty of 1 for side 1 (R3.6): 4-3
 *   5. 4-3  side 1 doubles to 2, side 0 takes and wins 2: 6-3, the match
 */
const FIVE: MatMatch = {
  target: 5,
  names: ['Anna & Ben', 'Carl: the\nGreat, 2'],
  date: '2024-05-17',
  event: 'Tuesday "open" ladder',
  games: [
    game(11, [0, 0], [double(0, 2), take(1)], 0, 2),
    game(12, [2, 0], [double(1, 2), pass(0)], 1, 1),
    game(14, [2, 1], [], 0, 2),
    game(15, [4, 1], [], 1, 1, { crawford: true }),
    game(16, [4, 3], [double(1), take(0)], 0, 2, { matchOver: true }),
  ],
};

/**
 * Written by hand from the format rules (mat-export.ts header): score line
 * " %-31s%s : %d"; rows "%3d) " + left cell padded to column 33 + right cell;
 * cube words at column 6 (left) / 34 (right); the winner's "Wins" line without a
 * row number; the Set Pos line in games without cube actions.
 */
const FIVE_TEXT = [
  `; [Event "Tuesday 'open' ladder"]`,
  '; [EventDate "2024.05.17"]',
  '',
  ' 5 point match',
  '',
  ' Game 1',
  ' Anna & Ben : 0' + sp(17) + 'Carl the Great 2 : 0',
  '  1)  Doubles => 2' + sp(15) + ' Takes',
  '      Wins 2 points',
  '',
  ' Game 2',
  ' Anna & Ben : 2' + sp(17) + 'Carl the Great 2 : 0',
  '  1) ' + sp(28) + ' Doubles => 2',
  '  2)  Drops' + sp(22),
  sp(34) + 'Wins 1 point',
  '',
  ' Game 3',
  ' Anna & Ben : 2' + sp(17) + 'Carl the Great 2 : 1',
  '; Set Pos=-b----E-C---eE---c-e----B-/0',
  '      Wins 2 points',
  '',
  ' Game 4',
  ' Anna & Ben : 4' + sp(17) + 'Carl the Great 2 : 1',
  '; Set Pos=-b----E-C---eE---c-e----B-/0',
  sp(34) + 'Wins 1 point',
  '',
  ' Game 5',
  ' Anna & Ben : 4' + sp(17) + 'Carl the Great 2 : 3',
  '  1) ' + sp(28) + ' Doubles => 2',
  '  2)  Takes' + sp(22),
  '      Wins 2 points and the match',
  '',
].join('\n');

// ---------------------------------------------------------------------------
// A model of GNU Backgammon's .mat importer (import.c ImportMatVariation,
// ImportGame, ParseMatMove; play.c ApplyMoveRecord), written for these tests from
// the reading of the C source summarised in mat-export.ts. It keeps gnubg's
// quirks that matter here: the static line buffer and the right-column pointer
// that current upstream does not reset between lines, the GAME_NONE state of a
// game until its first record, "Wins" read only while the game is in play, and
// the Crawford game derived from the score lines.
// ---------------------------------------------------------------------------

interface ImportedGame {
  index: number;
  names: [string, string];
  scoreBefore: [number, number];
  crawford: boolean;
  winner: 0 | 1 | null;
  points: number;
  cube: number;
  scoreAfter: [number, number];
}

interface Imported {
  length: number;
  event: string | null;
  date: [number, number, number] | null;
  games: ImportedGame[];
  score: [number, number];
  warnings: string[];
}

const NUL = '\0';

/** gnubg's static `szLine[1024]`: fgets overwrites the start and leaves the rest. */
class LineBuffer {
  private buf: string[] = new Array<string>(1024).fill(NUL);
  load(line: string): void {
    const chars = [...`${line}\n`];
    chars.forEach((c, i) => (this.buf[i] = c));
    this.buf[chars.length] = NUL;
  }
  set(i: number, c: string): void {
    this.buf[i] = c;
  }
  at(i: number): string {
    return this.buf[i];
  }
  /** The C string starting at i. */
  str(i = 0): string {
    let out = '';
    for (let k = i; k < this.buf.length && this.buf[k] !== NUL; k++) out += this.buf[k];
    return out;
  }
}

function importLikeGnubg(text: string): Imported {
  // GetMatLine: fgets lines, blank ones skipped.
  const lines = text.split('\n').filter((l) => l.replace(/[ \t\r]/g, '') !== '');
  const warnings: string[] = [];
  let pos = 0;
  let event: string | null = null;
  let date: [number, number, number] | null = null;
  let length = -1;
  for (; pos < lines.length; pos++) {
    const l = lines[pos].replace(/[\r\n].*$/, '');
    if (l.startsWith(';') || l.startsWith('#')) {
      const body = l.slice(1).trimStart();
      const value = (prefix: string) => {
        const v = body.slice(prefix.length + 2);
        const end = v.lastIndexOf('"]');
        return end >= 0 ? v.slice(0, end) : v;
      };
      if (body.startsWith('[Event ')) event = value('[Event');
      if (body.startsWith('[EventDate ')) {
        const m = /^(\d{1,4})\.(\d{1,2})\.(\d{1,2})/.exec(body.slice(12));
        if (m) date = [Number(m[1]), Number(m[2]), Number(m[3])];
      }
      continue;
    }
    const m = /^\s*(-?\d+)\s*[Pp]oint\s*[Mm]atch[\s\S]/.exec(`${lines[pos]}\n`);
    if (m) {
      length = Number(m[1]);
      pos++;
      break;
    }
  }
  if (length < 0) throw new Error('not a valid .mat file');

  const buffer = new LineBuffer();
  const games: ImportedGame[] = [];
  const score: [number, number] = [0, 0];
  let postCrawford = false;

  while (pos < lines.length) {
    if (!lines[pos].includes('Game ')) {
      pos++;
      continue;
    }
    const gameNo = parseInt(lines[pos].trimStart().slice(5), 10);
    pos++;
    // Score line: name 0 up to the first ':', then its score, then name 1 up to the next ':'.
    const sl = lines[pos++] ?? '';
    const c0 = sl.indexOf(':');
    if (c0 < 0) throw new Error(`no score line for game ${gameNo}`);
    const name0 = sl.slice(0, c0).trim().slice(0, 31);
    let rest = sl.slice(c0 + 1).replace(/^\s+/, '');
    const n0 = parseInt(rest, 10) || 0;
    rest = rest.replace(/^\S*\s*/, '');
    const c1 = rest.indexOf(':');
    if (c1 < 0) throw new Error(`no second name for game ${gameNo}`);
    const name1 = rest.slice(0, c1).trim().slice(0, 31);
    const n1 = parseInt(rest.slice(c1 + 1).trim(), 10) || 0;
    if (length && (n0 >= length || n1 >= length)) break;

    const crawford = !postCrawford && (n0 === length - 1) !== (n1 === length - 1);
    if (crawford) postCrawford = true;
    // MOVE_GAMEINFO: the score is taken from the line; the game is not in play yet.
    const g: ImportedGame = {
      index: gameNo - 1,
      names: [name0, name1],
      scoreBefore: [n0, n1],
      crawford,
      winner: null,
      points: 0,
      cube: 1,
      scoreAfter: [n0, n1],
    };
    let state: 'none' | 'playing' | 'over' = 'none';
    let doubled = false;
    let right: number | null = null; // not reset between lines, as upstream

    const parseCell = (cell: string, player: 0 | 1) => {
      const sz = cell.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
      if (!sz) return;
      if (/^[1-6][1-6]:/.test(sz)) throw new Error(`unexpected roll "${sz}"`);
      const lower = sz.toLowerCase();
      const end = (winner: 0 | 1, points: number) => {
        state = 'over';
        g.winner = winner;
        g.points = points;
        g.scoreAfter[winner] += points;
      };
      if (lower.startsWith('double') || lower.startsWith('beaver') || lower.startsWith('raccoon')) {
        state = 'playing';
        if (doubled) g.cube *= 2;
        else doubled = true;
      } else if (lower.startsWith('take')) {
        if (!doubled) return warnings.push(`take without a double in game ${gameNo}`);
        state = 'playing';
        g.cube *= 2;
        doubled = false;
      } else if (lower.startsWith('drop')) {
        if (!doubled) return warnings.push(`drop without a double in game ${gameNo}`);
        doubled = false;
        end(player === 0 ? 1 : 0, g.cube);
      } else if (lower.startsWith('win')) {
        // gnubg ignores it silently; noted here when the game never got into play.
        if (state === 'none') return warnings.push(`"${sz}" ignored: game ${gameNo} is not in play`);
        if (state !== 'playing') return;
        const n = parseInt(sz.slice(4), 10) || 0;
        const resigned = n <= g.cube ? 1 : n <= 2 * g.cube ? 2 : 3;
        end(player, g.cube * resigned);
      } else if (!lower.startsWith('resign')) {
        warnings.push(`unrecognised "${sz}" in game ${gameNo}`);
      }
    };

    while (pos < lines.length && !lines[pos].includes('Game ')) {
      buffer.load(lines[pos++]);
      const cut = buffer.str().search(/[\r\n]/);
      if (cut >= 0) buffer.set(cut, NUL);
      const line = buffer.str();
      if (line.startsWith('; Set Pos=') && line[36] === '/') {
        // ms.gs = GAME_PLAYING, then set cube / set board records.
        state = 'playing';
        g.cube = line[37] === '0' ? 1 : 1 << Number(line[37] === '-' ? line[38] : line[37]);
        continue;
      }
      // if (two ':' and the second past index 3) cut before the second roll;
      // else if (longer than 15) cut at the first "  " from index 15. `right` keeps
      // its old value when neither assigns it.
      let cutAtRoll = false;
      const colon = line.indexOf(':');
      if (colon >= 0) {
        const second = line.indexOf(':', colon + 1);
        right = second >= 0 ? second : null;
        if (right !== null && right > 3) {
          cutAtRoll = true;
          right -= 2;
          buffer.set(right - 1, NUL);
        }
      }
      if (!cutAtRoll && line.length > 15) {
        const gap = line.indexOf('  ', 15);
        right = gap >= 0 ? gap : null;
        if (right !== null) buffer.set(right++, NUL);
      }
      const left = buffer.str();
      const paren = left.indexOf(')');
      parseCell(paren >= 0 ? left.slice(paren + 1) : left, 0);
      if (right !== null) parseCell(buffer.str(right), 1);
    }
    games.push(g);
    score[0] = g.scoreAfter[0];
    score[1] = g.scoreAfter[1];
    if (length && (score[0] >= length || score[1] >= length)) break;
  }
  return { length, event, date, games, score, warnings };
}

/** What the service says: each game's score before and after, and the final score. */
function ourScores(m: MatMatch): { before: [number, number]; after: [number, number] }[] {
  return m.games.map((g) => {
    const after: [number, number] = [g.scoreBefore[0], g.scoreBefore[1]];
    after[g.winnerSide] += g.points;
    return { before: g.scoreBefore, after };
  });
}

// ---------------------------------------------------------------------------

describe('renderMat: a 5-point match', () => {
  const text = renderMat(FIVE);

  it('is exactly the hand-written text', () => {
    expect(text).toBe(FIVE_TEXT);
  });

  it('has "N point match" and " Game k" headers, games numbered 1..n (not the table numbers)', () => {
    expect(text).toContain('\n 5 point match\n');
    const headers = text.split('\n').filter((l) => /^ Game \d+$/.test(l));
    expect(headers).toEqual([' Game 1', ' Game 2', ' Game 3', ' Game 4', ' Game 5']);
  });

  it('puts every score line at the scores passed in (penalties included: 4-2 then 4-3)', () => {
    const lines = text.split('\n');
    const scoreLines = lines.filter((_, i) => i > 0 && /^ Game \d+$/.test(lines[i - 1]));
    const parsed = scoreLines.map((l) => {
      const m = /^ (.+?) : (\d+) +(.+?) : (\d+)$/.exec(l);
      if (!m) throw new Error(`not a score line: ${l}`);
      return { names: [m[1], m[3]], score: [Number(m[2]), Number(m[4])] };
    });
    expect(parsed.map((p) => p.score)).toEqual(FIVE.games.map((g) => g.scoreBefore));
    for (const p of parsed) expect(p.names).toEqual(['Anna & Ben', 'Carl the Great 2']);
    // The second name starts in column 32 (" %-31s").
    for (const l of scoreLines) expect(l.indexOf('Carl')).toBe(32);
  });

  it("writes cube words in the acting side's column: column 6 left, column 34 right", () => {
    const rows = text.split('\n').filter((l) => /^ {0,2}\d+\) /.test(l));
    for (const row of rows) {
      for (const word of ['Doubles', 'Takes', 'Drops']) {
        const at = row.indexOf(word);
        if (at >= 0) expect([6, 34]).toContain(at);
      }
    }
    // Game 2: side 1 doubles (right), side 0 drops (left), side 1 wins (right).
    const g2 = text.split(' Game 2\n')[1].split('\n\n')[0].split('\n');
    expect(g2[1].indexOf('Doubles => 2')).toBe(34);
    expect(g2[2].indexOf('Drops')).toBe(6);
    expect(g2[3].indexOf('Wins 1 point')).toBe(34);
  });

  it("keeps every numbered row longer than 15 characters, with its right column at 33 (gnubg's split)", () => {
    const rows = text.split('\n').filter((l) => /^ {0,2}\d+\) /.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.length).toBeGreaterThanOrEqual(33);
      expect(row.indexOf('  ', 15)).toBeGreaterThan(-1);
    }
  });

  it('says the last game won the match, and only the last', () => {
    const wins = text.split('\n').filter((l) => l.includes('Wins'));
    expect(wins).toHaveLength(5);
    expect(wins[4].trim()).toBe('Wins 2 points and the match');
    expect(wins.slice(0, 4).some((l) => l.includes('match'))).toBe(false);
    expect(wins.map((l) => l.trim())).toEqual(['Wins 2 points', 'Wins 1 point', 'Wins 2 points', 'Wins 1 point', 'Wins 2 points and the match']);
  });

  it('uses \\n line ends only, ends with one, and is the same every time', () => {
    expect(text).not.toContain('\r');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(renderMat(JSON.parse(JSON.stringify(FIVE)) as MatMatch)).toBe(text);
  });
});

describe('renderMat read back the way GNU Backgammon imports it', () => {
  it('gives gnubg our score before and after every game, the winners and the final 6-3', () => {
    const imported = importLikeGnubg(renderMat(FIVE));
    expect(imported.length).toBe(5);
    expect(imported.event).toBe("Tuesday 'open' ladder");
    expect(imported.date).toEqual([2024, 5, 17]);
    expect(imported.games.map((g) => g.index)).toEqual([0, 1, 2, 3, 4]);
    const ours = ourScores(FIVE);
    expect(imported.games.map((g) => g.scoreBefore)).toEqual(ours.map((s) => s.before));
    expect(imported.games.map((g) => g.scoreAfter)).toEqual(ours.map((s) => s.after));
    expect(imported.games.map((g) => [g.winner, g.points])).toEqual(FIVE.games.map((g) => [g.winnerSide, g.points]));
    expect(imported.games.map((g) => g.cube)).toEqual([2, 1, 1, 1, 2]);
    expect(imported.score).toEqual([6, 3]);
    expect(imported.games[0].names).toEqual(['Anna & Ben', 'Carl the Great 2']);
    expect(imported.warnings).toEqual([]);
  });

  it('marks the same Crawford game as ours (gnubg derives it from the score lines)', () => {
    const imported = importLikeGnubg(renderMat(FIVE));
    expect(imported.games.map((g) => g.crawford)).toEqual(FIVE.games.map((g) => g.crawford));
  });

  it('needs the Set Pos line: without it a game with no cube action gets no result', () => {
    const without = renderMat(FIVE)
      .split('\n')
      .filter((l) => l !== SET_OPENING_POSITION)
      .join('\n');
    const imported = importLikeGnubg(without);
    expect(imported.games[2].winner).toBeNull();
    expect(imported.games[3].winner).toBeNull();
    expect(imported.warnings).toHaveLength(2);
  });

  it('needs the padded rows: stripped of trailing blanks, a short row re-reads the line before', () => {
    // Side 1 doubles, side 0 takes; side 0 redoubles, side 1 takes; side 0 wins 4.
    const m: MatMatch = {
      target: 7,
      names: ['Ann', 'Bob'],
      games: [game(1, [0, 0], [double(1), take(0), double(0, 4), take(1)], 0, 4)],
    };
    const text = renderMat(m);
    expect(text).toContain('  2)  Takes' + sp(22) + '\n');
    const good = importLikeGnubg(text);
    expect(good.games[0]).toMatchObject({ winner: 0, points: 4, cube: 4, scoreAfter: [4, 0] });
    const stripped = importLikeGnubg(text.replace(/ +\n/g, '\n'));
    expect(stripped.games[0].cube).not.toBe(4);
  });

  it('ends a moveless 1-point match as we do', () => {
    const one: MatMatch = {
      target: 1,
      names: ['Ann', 'Bob'],
      games: [game(1, [0, 0], [], 1, 1, { matchOver: true })],
    };
    const imported = importLikeGnubg(renderMat(one));
    expect(imported.games[0]).toMatchObject({ winner: 1, points: 1, crawford: false });
    expect(imported.score).toEqual([0, 1]);
  });
});

describe('renderMat: names and header', () => {
  it('makes names safe: no ":" or ",", no line breaks or control characters, blanks collapsed', () => {
    expect(sanitizeName('Carl: the\nGreat, 2', 1)).toBe('Carl the Great 2');
    expect(sanitizeName(' Anna \t&\r\n Ben ', 0)).toBe('Anna & Ben');
    expect(sanitizeName('a\u0000b\u2028c\u00a0d', 0)).toBe('a b c d');
    expect(sanitizeName('Zoë & Åsa', 0)).toBe('Zoë & Åsa');
  });

  it('falls back to "Player 1"/"Player 2" for an empty name', () => {
    expect(sanitizeName('', 0)).toBe('Player 1');
    expect(sanitizeName(' : , ', 1)).toBe('Player 2');
    const text = renderMat({ target: 3, names: ['', ':'], games: [] });
    expect(text).toBe(' 3 point match\n');
  });

  it('cuts a name to the 31 bytes gnubg keeps, at a character boundary', () => {
    const long = 'Alexandra Smith-Jones & Benjamin Jones';
    expect(sanitizeName(long, 0)).toBe('Alexandra Smith-Jones & Benjami');
    expect(Buffer.byteLength(sanitizeName(long, 0))).toBe(31);
    const accented = 'é'.repeat(20); // 2 bytes each
    expect(sanitizeName(accented, 0)).toBe('é'.repeat(15));
  });

  it('keeps a space between a long first "name : score" and the second name', () => {
    const text = renderMat({
      target: 3,
      names: ['Alexandra Smith-Jones & Benjami', 'Bob'],
      games: [game(1, [0, 0], [], 1, 1)],
    });
    expect(text).toContain('\n Alexandra Smith-Jones & Benjami : 0 Bob : 0\n');
    expect(importLikeGnubg(text).games[0].names).toEqual(['Alexandra Smith-Jones & Benjami', 'Bob']);
  });

  it('writes no tag lines without a date or event, and refuses a malformed date', () => {
    const text = renderMat({ target: 3, names: ['Ann', 'Bob'], games: [game(1, [0, 0], [], 0, 1)] });
    expect(text.startsWith(' 3 point match\n\n Game 1\n')).toBe(true);
    expect(() => renderMat({ target: 3, names: ['Ann', 'Bob'], games: [], date: '2024-02-30' })).toThrow(MatExportError);
    expect(() => renderMat({ target: 3, names: ['Ann', 'Bob'], games: [], date: '17/05/2024' })).toThrow(MatExportError);
  });

  it('keeps the event on one line', () => {
    const text = renderMat({ target: 3, names: ['Ann', 'Bob'], games: [], event: 'Club\nnight "A"' });
    expect(text.split('\n')[0]).toBe(`; [Event "Club night 'A'"]`);
  });
});

describe('renderMat: cube lines', () => {
  it("writes a beaver in the taker's column and a raccoon in the doubler's (money-only, R2.8, but supported)", () => {
    const m: MatMatch = {
      target: 15,
      names: ['Ann', 'Bob'],
      games: [
        game(1, [0, 0], [double(0, 2), { type: 'beaver', side: 1, value: 4 }, take(0)], 1, 8),
        game(2, [0, 8], [double(1), { type: 'beaver', side: 0 }, { type: 'raccoon', side: 1, value: 8 }, pass(0)], 1, 4),
      ],
    };
    const text = renderMat(m);
    const lines = text.split('\n');
    expect(lines).toContain('  1)  Doubles => 2' + sp(15) + ' Beavers => 4');
    expect(lines).toContain('  2)  Takes' + sp(22));
    expect(lines).toContain('  1) ' + sp(28) + ' Doubles => 2');
    expect(lines).toContain('  2)  Beavers => 4' + sp(15) + ' Raccoons => 8');
    expect(lines).toContain('  3)  Drops' + sp(22));
    const imported = importLikeGnubg(text);
    expect(imported.games.map((g) => [g.winner, g.points, g.cube])).toEqual([
      [1, 8, 4],
      [1, 4, 4],
    ]);
    expect(imported.score).toEqual([0, 12]);
  });

  it('says "point" for 1 and "points" otherwise', () => {
    const text = renderMat({
      target: 7,
      names: ['Ann', 'Bob'],
      games: [game(1, [0, 0], [], 0, 1), game(2, [1, 0], [], 1, 3)],
    });
    expect(text).toContain('\n      Wins 1 point\n');
    expect(text).toContain('\n' + sp(34) + 'Wins 3 points\n');
  });
});

describe('renderMat refuses what gnubg would read differently', () => {
  const base = (games: MatGame[], target = 5): MatMatch => ({ target, names: ['Ann', 'Bob'], games });
  const refused = (m: MatMatch, fragment: string) => {
    let caught: unknown;
    try {
      renderMat(m);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MatExportError);
    expect((caught as Error).message).toContain(fragment);
  };

  it('a take or pass without a double from the other side, a double over a pending offer', () => {
    refused(base([game(1, [0, 0], [take(1)], 0, 1)]), 'no offer');
    refused(base([game(1, [0, 0], [double(0), take(0)], 0, 2)]), 'no offer');
    refused(base([game(1, [0, 0], [double(0), double(1)], 0, 2)]), 'waiting for an answer');
    refused(base([game(1, [0, 0], [double(0)], 0, 1)]), 'unanswered');
    refused(base([game(1, [0, 0], [double(0), take(1), double(0)], 0, 2)]), 'owns the cube');
  });

  it('a cube value that does not follow, a result that is not the cube times 1, 2 or 3', () => {
    refused(base([game(1, [0, 0], [double(0, 4), take(1)], 0, 4)]), 'goes to 2');
    refused(base([game(1, [0, 0], [double(0), take(1)], 0, 3)]), 'worth 2, 4 or 6');
    refused(base([game(1, [0, 0], [], 0, 4)]), 'worth 1, 2 or 3');
  });

  it('a pass not won by the doubler for the standing cube value', () => {
    refused(base([game(1, [0, 0], [double(0), pass(1)], 1, 1)]), 'its side 0 wins');
    refused(base([game(1, [0, 0], [double(0), pass(1)], 0, 2)]), 'worth 1, not 2');
    refused(base([game(1, [0, 0], [double(0), pass(1), double(0)], 0, 1)]), 'already ended');
  });

  it('scores going back, a game at or past the target, matchOver that disagrees with the score', () => {
    refused(base([game(1, [0, 0], [], 0, 2), game(2, [1, 0], [], 0, 1)]), 'lower than after');
    refused(base([game(1, [5, 0], [], 0, 1)]), 'already reached');
    refused(base([game(1, [4, 0], [], 0, 1)]), 'not marked as ending the match');
    refused(base([game(1, [0, 0], [], 0, 1, { matchOver: true })]), 'does not reach');
    refused(base([game(1, [4, 0], [], 0, 1, { matchOver: true }), game(2, [4, 0], [], 1, 1)]), 'no game can follow');
  });

  it('cube actions in a game marked Crawford', () => {
    refused(base([game(1, [4, 2], [double(1), take(0)], 1, 2, { crawford: true })]), 'Crawford');
  });
});

describe('the Set Pos line', () => {
  it("is the opening position with the cube centred, as gnubg's PositionFromXG and the importer read it", () => {
    // index 36 is '/', the cube character at 37 is '0' (centred, value 1)
    expect(SET_OPENING_POSITION.length).toBe(38);
    expect(SET_OPENING_POSITION[36]).toBe('/');
    expect(SET_OPENING_POSITION[37]).toBe('0');
    // XG board: index 0 and 25 bars; uppercase = one side on its point i, lowercase = the other on point 25 - i.
    const upper: Record<number, number> = {};
    const lower: Record<number, number> = {};
    [...OPENING_POSITION_XG].forEach((c, i) => {
      if (c >= 'A' && c <= 'P') upper[i] = c.charCodeAt(0) - 64;
      if (c >= 'a' && c <= 'p') lower[25 - i] = c.charCodeAt(0) - 96;
    });
    const opening = { 6: 5, 8: 3, 13: 5, 24: 2 };
    expect(upper).toEqual(opening);
    expect(lower).toEqual(opening);
  });
});

describe('R8.9: the .mat export is backgammon only', () => {
  it('writes a backgammon match, named or not', () => {
    expect(renderMat({ ...FIVE, variant: 'backgammon' })).toBe(renderMat(FIVE));
    expect(() => assertMatExportable(undefined)).not.toThrow();
  });

  it.each(['long-nardy', 'portes', 'plakoto', 'fevga', 'tavli', 'tavla-31'])('refuses a %s match with the variant named', (variant) => {
    const e = expectRefusal(() => renderMat({ ...FIVE, variant }), 'EXPORT_UNSUPPORTED_VARIANT', 'R8.9');
    expect(e.message).toContain(variant);
    expect(e.details).toEqual({ variant });
  });
});
