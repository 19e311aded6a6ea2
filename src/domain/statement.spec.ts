import fc from 'fast-check';
import { HOUSE, netsFromEntries, Transfer } from './settlement';
import { buildStatement, StatementInput, StatementPayment } from './statement';

const session: StatementInput['session'] = {
  id: 's1',
  name: 'Tuesday',
  currency: 'USD',
  status: 'open',
  rakeBp: 500,
  startsAt: null,
  closedAt: null,
  createdAt: '2026-11-03T18:00:00.000Z',
};
const club = { id: 'c1', name: 'Club', timezone: 'UTC' };

function input(entries: Transfer[], payments: StatementPayment[], players: StatementInput['players']): StatementInput {
  return { session, club, players, nets: netsFromEntries(entries), payments, asOf: '2026-11-03T23:00:00.000Z' };
}

describe('R6.5 settlement statement', () => {
  it('R6.5 lists nets, games, the house and the transfers, by name', () => {
    // Ann beats Bob for 1000, rake 5 % → Ann pays the house 50. Cid beats Bob for 400, rake 20.
    const entries: Transfer[] = [
      { from: 'bob', to: 'ann', amountMinor: 1000 },
      { from: 'ann', to: HOUSE, amountMinor: 50 },
      { from: 'bob', to: 'cid', amountMinor: 400 },
      { from: 'cid', to: HOUSE, amountMinor: 20 },
    ];
    const players = [
      { playerId: 'cid', name: 'Cid', games: 1 },
      { playerId: 'bob', name: 'Bob', games: 2 },
      { playerId: 'ann', name: 'Ann', games: 1 },
      { playerId: 'dee', name: 'Dee', games: 0 },
    ];
    // Bob hands Ann 500 in cash.
    const st = buildStatement(input(entries, [{ id: 'p1', from: 'bob', to: 'ann', amountMinor: 500, note: null, at: '2026-11-03T22:00:00.000Z' }], players));
    expect(st.players).toEqual([
      { playerId: 'ann', name: 'Ann', netMinor: 950, games: 1, paidMinor: 0, receivedMinor: 500, outstandingMinor: 450 },
      { playerId: 'bob', name: 'Bob', netMinor: -1400, games: 2, paidMinor: 500, receivedMinor: 0, outstandingMinor: -900 },
      { playerId: 'cid', name: 'Cid', netMinor: 380, games: 1, paidMinor: 0, receivedMinor: 0, outstandingMinor: 380 },
      { playerId: 'dee', name: 'Dee', netMinor: 0, games: 0, paidMinor: 0, receivedMinor: 0, outstandingMinor: 0 },
    ]);
    expect(st.houseMinor).toBe(70);
    expect(st.houseOutstandingMinor).toBe(70);
    expect(st.totalMinor).toBe(0);
    expect(st.rakePercent).toBe(5);
    // Bob owes 900: Ann 450 first (largest creditor), then Cid 380, then the house 70.
    expect(st.transfers).toEqual([
      { from: 'bob', fromName: 'Bob', to: 'ann', toName: 'Ann', amountMinor: 450 },
      { from: 'bob', fromName: 'Bob', to: 'cid', toName: 'Cid', amountMinor: 380 },
      { from: 'bob', fromName: 'Bob', to: HOUSE, toName: 'House', amountMinor: 70 },
    ]);
    expect(st.payments).toEqual([{ id: 'p1', from: 'bob', fromName: 'Bob', to: 'ann', toName: 'Ann', amountMinor: 500, note: null, at: '2026-11-03T22:00:00.000Z' }]);
  });

  it('R6.5 a party of the ledger without a player row still appears, named by its id', () => {
    const st = buildStatement(input([{ from: 'x', to: 'y', amountMinor: 5 }], [], []));
    expect(st.players.map((p) => [p.name, p.netMinor])).toEqual([
      ['x', -5],
      ['y', 5],
    ]);
  });

  it('R6.5/R6.6 property: exact, bounded, conserved and byte-identical whatever the order', () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11', HOUSE];
    const movement = fc
      .record({ from: fc.constantFrom(...ids), to: fc.constantFrom(...ids), amountMinor: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 2 ** 40 })) })
      .filter((m) => m.from !== m.to);
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 60 }), fc.array(movement, { maxLength: 10 }), fc.integer(), (entries, pays, seed) => {
        const payments = pays.map((p, i) => ({ ...p, id: `pay${String(i).padStart(3, '0')}`, note: null, at: '2026-11-03T22:00:00.000Z' }));
        const players = ids.filter((p) => p !== HOUSE).map((playerId, i) => ({ playerId, name: `Player ${i % 5}`, games: i }));
        const st = buildStatement(input(entries, payments, players));

        // The nets, computed here independently: received − paid over the ledger.
        const net = new Map<string, bigint>();
        const add = (p: string, v: bigint) => net.set(p, (net.get(p) ?? 0n) + v);
        for (const e of entries) {
          add(e.to, BigInt(e.amountMinor));
          add(e.from, -BigInt(e.amountMinor));
        }
        for (const p of st.players) expect(BigInt(p.netMinor)).toBe(net.get(p.playerId) ?? 0n);
        expect(BigInt(st.houseMinor)).toBe(net.get(HOUSE) ?? 0n);
        expect(st.totalMinor).toBe(0);

        // Outstanding = net + paid − received (R6.6), and the transfers settle it exactly (R6.5).
        const open = new Map<string, bigint>();
        for (const p of st.players) {
          expect(p.outstandingMinor).toBe(p.netMinor + p.paidMinor - p.receivedMinor);
          open.set(p.playerId, BigInt(p.outstandingMinor));
        }
        open.set(HOUSE, BigInt(st.houseOutstandingMinor));
        const nonZero = [...open.values()].filter((v) => v !== 0n).length;
        expect(st.transfers.length).toBeLessThanOrEqual(Math.max(0, nonZero - 1));
        for (const t of st.transfers) {
          expect(t.amountMinor).toBeGreaterThan(0);
          open.set(t.from, open.get(t.from)! + BigInt(t.amountMinor));
          open.set(t.to, open.get(t.to)! - BigInt(t.amountMinor));
        }
        expect([...open.values()].every((v) => v === 0n)).toBe(true);

        // The same ledger in another order gives the same bytes.
        const shuffle = <T>(xs: T[]) =>
          xs
            .map((x, i) => ({ x, k: (i * 7919 + seed) % 104729 }))
            .sort((a, b) => a.k - b.k)
            .map((a) => a.x);
        const again = buildStatement(input(shuffle(entries), shuffle(payments), shuffle(players)));
        expect(JSON.stringify(again)).toBe(JSON.stringify(st));
      }),
      { numRuns: 300 },
    );
  });
});
