import type { MatGame, MatGameAction, MatMatch } from '../domain/mat-export';
import type { SideIndex } from '../domain/types';
import { MatchTableSetup, MatchTableState, scoreOf, standingForfeit, standingPenalties } from './engines';
import { isCrawfordGame, StoredAction, StoredGame } from './stored-state';

/**
 * The cube lines of one game for the .mat record: who offered, answered, beavered,
 * with the value each offer makes the cube (a double of a 2-cube offers 4, a beaver
 * of that offer makes it 8).
 */
function matActions(actions: StoredAction[], sideOf: (playerId: string) => SideIndex): MatGameAction[] {
  const out: MatGameAction[] = [];
  let cube = 1;
  let offered = 0;
  for (const a of actions) {
    // A refused resignation (R3.10) has no line in the .mat record.
    if (a.type === 'finish' || a.type === 'resign-refused' || a.by === undefined) continue;
    const side = sideOf(a.by);
    if (a.type === 'double') {
      offered = cube * 2;
      out.push({ type: 'double', side, value: offered });
    } else if (a.type === 'beaver' || a.type === 'raccoon') {
      offered *= 2;
      out.push({ type: a.type, side, value: offered });
    } else if (a.type === 'take') {
      cube = offered;
      out.push({ type: 'take', side });
    } else {
      out.push({ type: 'pass', side });
    }
  }
  return out;
}

/**
 * A match as the Jellyfish .mat export needs it: its finished games in order, each
 * with the score before it (penalties between games included, R3.6), whether it is
 * the Crawford game (R3.4), its cube lines and its result.
 */
export function matMatch(setup: MatchTableSetup, games: StoredGame[], state: MatchTableState, names: [string, string], date: string): MatMatch {
  const penalties = standingPenalties(state);
  const finished = games.filter((g) => g.status === 'finished');
  const history = finished.map((g) => ({ gameNo: g.gameNo, winnerSide: g.winnerSide as SideIndex, points: g.points as number }));
  const sideOf = (playerId: string): SideIndex => (setup.sides[0].includes(playerId) ? 0 : 1);
  const out: MatGame[] = finished.map((g, i) => {
    const before = { penalties: penalties.filter((p) => p.afterGameNo < g.gameNo) };
    const scoreBefore = scoreOf(setup, history.slice(0, i), before).score;
    const after = scoreOf(setup, history.slice(0, i + 1), before);
    return {
      gameNo: g.gameNo,
      scoreBefore: [scoreBefore[0], scoreBefore[1]],
      crawford: isCrawfordGame(g),
      actions: matActions(g.actions, sideOf),
      winnerSide: g.winnerSide as SideIndex,
      points: g.points as number,
      matchOver: after.status === 'finished',
    };
  });
  // R8.9: the variant goes with the record, so that only a backgammon match is written.
  const { variant } = setup as MatchTableSetup & { variant?: string };
  // R3.9: a forfeit is said in the header; the games stay as they were played.
  const forfeit = standingForfeit(state);
  const termination = forfeit ? `Forfeit by ${names[forfeit.side]} (${forfeit.reason}); ${names[1 - forfeit.side]} wins` : undefined;
  return { target: setup.target, names, games: out, date, ...(variant === undefined ? {} : { variant }), ...(termination === undefined ? {} : { termination }) };
}
