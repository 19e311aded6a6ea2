import { Skeleton1764547200000 } from './1764547200000-Skeleton';
import { Tables1764633600000 } from './1764633600000-Tables';
import { Settlement1764720000000 } from './1764720000000-Settlement';
import { Guards1764806400000 } from './1764806400000-Guards';
import { SessionTotals1764892800000 } from './1764892800000-SessionTotals';
import { TeamEvents1764979200000 } from './1764979200000-TeamEvents';
import { WriteChecks1765065600000 } from './1765065600000-WriteChecks';
import { PartyVolumes1765158240000 } from './1765158240000-PartyVolumes';
import { SealedReplays1765163471000 } from './1765163471000-SealedReplays';
import { AuditActors1765163472000 } from './1765163472000-AuditActors';
import { AuthRateCounters1765163473000 } from './1765163473000-AuthRateCounters';
import { AppRole1796169600000 } from './1796169600000-AppRole';
import { GuardConflicts1796256000000 } from './1796256000000-GuardConflicts';
import { Events1796342400000 } from './1796342400000-Events';
import { WebhookLeases1796432400000 } from './1796432400000-WebhookLeases';
import { TableListIndexes1796518800000 } from './1796518800000-TableListIndexes';
import { ReadModels1796605200000 } from './1796605200000-ReadModels';
import { ResignationStats1796691600000 } from './1796691600000-ResignationStats';
import { Tournaments1796778000000 } from './1796778000000-Tournaments';
import { BoardLinks1796864400000 } from './1796864400000-BoardLinks';
import { StatementPages1796950800000 } from './1796950800000-StatementPages';
import { TableNets1796954400000 } from './1796954400000-TableNets';
import { PartySessions1797040800000 } from './1797040800000-PartySessions';

/** Every migration, in order. Listed explicitly so compiled and ts-jest runs agree. */
export const MIGRATIONS = [
  Skeleton1764547200000,
  Tables1764633600000,
  Settlement1764720000000,
  Guards1764806400000,
  SessionTotals1764892800000,
  TeamEvents1764979200000,
  WriteChecks1765065600000,
  PartyVolumes1765158240000,
  SealedReplays1765163471000,
  AuditActors1765163472000,
  AuthRateCounters1765163473000,
  AppRole1796169600000,
  GuardConflicts1796256000000,
  Events1796342400000,
  WebhookLeases1796432400000,
  TableListIndexes1796518800000,
  ReadModels1796605200000,
  ResignationStats1796691600000,
  Tournaments1796778000000,
  BoardLinks1796864400000,
  StatementPages1796950800000,
  TableNets1796954400000,
  PartySessions1797040800000,
];
