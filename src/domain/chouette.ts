/**
 * The chouette domain (R5): settings, seats and rotation, games over an action
 * log, and money. Pure TypeScript: no framework, no I/O.
 */
export * from './chouette-rules';
export * from './chouette-seats';
export * from './chouette-game';
export * from './chouette-money';
