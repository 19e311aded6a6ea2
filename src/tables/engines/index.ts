/**
 * Glue between stored tables and the pure rules of src/domain, one module per kind of
 * table (match.ts, money.ts, chouette.ts): which game comes next, how an action log
 * replays, what a finished game posts to the ledger, who plays. Here: the types each kind
 * keeps and plays, and the engine of a kind. No I/O.
 *
 * What every kind shares (the Engine interface, Posting, rakePostings) is defined in
 * engine.ts, which the kinds import, and exported from here with the rest.
 */
import type { TableKind as DomainTableKind } from '../../domain/table-kinds';
import type { GameSetup, GameState } from '../../domain/game';
import type { ChouetteGameState } from '../../domain/chouette';
import { ChouetteTableSetup, ChouetteTableState, chouetteEngine, StoredChouetteGame } from './chouette';
import type { Engine } from './engine';
import { MatchTableSetup, MatchTableState, matchEngine } from './match';
import { moneyEngine, MoneyTableSetup, MoneyTableState } from './money';

export * from './engine';
export * from './match';
export * from './money';
export * from './chouette';

/** A table's `setup` column, by the table's kind. */
export interface TableSetups {
  match: MatchTableSetup;
  money: MoneyTableSetup;
  chouette: ChouetteTableSetup;
}

/** A table's `state` column, by the table's kind. */
export interface TableStates {
  match: MatchTableState;
  money: MoneyTableState;
  chouette: ChouetteTableState;
}

/** A game's `setup` column, by its table's kind. */
export interface GameSetups {
  match: GameSetup;
  money: GameSetup;
  chouette: StoredChouetteGame;
}

/** A game's state replayed from its action log, by its table's kind. */
export interface GameStates {
  match: GameState;
  money: GameState;
  chouette: ChouetteGameState;
}

/** A match, a money game or a chouette (src/domain/table-kinds.ts); each has its columns' types above and its engine below. */
export type TableKind = DomainTableKind;

/** The engine of one kind of table, over that kind's types. */
export type KindEngine<K extends TableKind> = Engine<TableSetups[K], GameSetups[K], GameStates[K]>;

const ENGINES: { [K in TableKind]: KindEngine<K> } = { match: matchEngine, money: moneyEngine, chouette: chouetteEngine };

/** The engine of a kind: with a kind narrowed (a chouette), its setup and state types (a chouette's). */
export function engineFor<K extends TableKind>(kind: K): KindEngine<K> {
  return ENGINES[kind];
}
