import { EXAMPLE_ID } from '../common/example-ids';
import type { TournamentDto } from './tournaments.dto';

const { anna, ben, carla, dmitri, session } = EXAMPLE_ID;
const m = (n: number) => `0190c3a2-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`;

/**
 * A running bracket, for the OpenAPI document: four players, seeded by rating (Anna,
 * Ben, Carla, Dmitri), matches to 5 and a final to 7. Anna has beaten Dmitri 5–2 and
 * waits in the final; Ben and Carla are playing.
 */
export const RUNNING_BRACKET: TournamentDto = {
  id: '0190c3a2-0000-7000-8000-0000000000f1',
  name: 'Friday knockout',
  format: 'knockout',
  status: 'running',
  rounds: null,
  targets: [5, 7],
  variant: 'backgammon',
  rules: { crawford: true, deadCube: 'refuse', jacoby: false, beavers: false, raccoons: false, cubeLimit: null, automaticDoubles: 0, backgammonMultiplier: 3 },
  sessionId: session,
  currency: 'EUR',
  entryFeeMinor: 2000,
  housePercent: 10,
  payouts: [70, 30],
  consolation: false,
  startsAt: '2026-12-11T18:30:00.000Z',
  roundMinutes: null,
  flights: [
    {
      name: 'main',
      status: 'running',
      entries: [
        { playerId: anna, seed: 1, status: 'in' },
        { playerId: ben, seed: 2, status: 'in' },
        { playerId: carla, seed: 3, status: 'in' },
        { playerId: dmitri, seed: 4, status: 'out' },
      ],
      rounds: [
        {
          no: 1,
          target: 5,
          scheduledAt: '2026-12-11T18:30:00.000Z',
          pairings: [
            { no: 1, sides: [[anna], [dmitri]], slots: [anna, dmitri], bye: null, matchId: m(1), winnerSide: 0, endedBy: { kind: 'points' }, score: [5, 2] },
            { no: 2, sides: [[ben], [carla]], slots: [ben, carla], bye: null, matchId: m(2), winnerSide: null, endedBy: null, score: null },
          ],
        },
        { no: 2, target: 7, scheduledAt: null, pairings: [{ no: 1, sides: null, slots: [anna, null], bye: null, matchId: null, winnerSide: null, endedBy: null, score: null }] },
      ],
      consolation: null,
      standings: [
        { playerId: dmitri, place: 3, wins: 0, buchholz: 1, pointsFor: 2, pointsAgainst: 5 },
        { playerId: anna, place: null, wins: 1, buchholz: 0, pointsFor: 5, pointsAgainst: 2 },
        { playerId: ben, place: null, wins: 0, buchholz: 0, pointsFor: 0, pointsAgainst: 0 },
        { playerId: carla, place: null, wins: 0, buchholz: 0, pointsFor: 0, pointsAgainst: 0 },
      ],
      prizePoolMinor: 8000,
      houseMinor: 800,
      prizes: [],
    },
  ],
  version: 7,
  createdAt: '2026-12-11T17:45:00.000Z',
  updatedAt: '2026-12-11T19:12:00.000Z',
};
