/**
 * The kinds of table and their engines: the types each kind keeps and plays, and the
 * engine of a kind, through which the services dispatch. The engines are the domain's,
 * one module per kind (src/domain/match-table.ts, money-table.ts, chouette-table.ts;
 * what they share in table-engine.ts): which game comes next, how an action log replays,
 * what a game's finish or void decides, who plays. Exported from here with the rest. No I/O.
 */
import type { TableKind as DomainTableKind } from '../../domain/table-kinds';
import type { GameSetup, GameState } from '../../domain/game';
import type { ChouetteGameState } from '../../domain/chouette';
import { ChouetteTableSetup, ChouetteTableState, chouetteEngine, StoredChouetteGame } from '../../domain/chouette-table';
import type { Engine } from '../../domain/table-engine';
import { MatchTableSetup, MatchTableState, matchEngine } from '../../domain/match-table';
import { moneyEngine, MoneyTableSetup, MoneyTableState } from '../../domain/money-table';

export * from '../../domain/table-engine';
export * from '../../domain/match-table';
export * from '../../domain/money-table';
export * from '../../domain/chouette-table';

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
export type KindEngine<K extends TableKind> = Engine<TableSetups[K], GameSetups[K], GameStates[K], TableStates[K]>;

const ENGINES: { [K in TableKind]: KindEngine<K> } = { match: matchEngine, money: moneyEngine, chouette: chouetteEngine };

/** The engine of a kind: with a kind narrowed (a chouette), its setup and state types (a chouette's). */
export function engineFor<K extends TableKind>(kind: K): KindEngine<K> {
  return ENGINES[kind];
}
