import { PictureBudget } from './picture-budget';

describe('PictureBudget', () => {
  it('takes bytes while both bounds allow, refuses past either without taking anything, and names the bound', () => {
    const budget = new PictureBudget(100, 60);
    const alice = budget.hold('user:alice');
    const bob = budget.hold('user:bob');
    expect(alice.take(50)).toBeNull();
    expect(alice.take(20)).toBe('owner');
    expect(bob.take(51)).toBe('instance');
    expect(bob.take(40)).toBeNull();
    expect([budget.held, budget.heldFor('user:alice'), budget.heldFor('user:bob')]).toEqual([90, 50, 40]);
    expect(alice.held).toBe(50);
  });

  it('gives back what a hold took, at most that, and remembers the peaks', () => {
    const budget = new PictureBudget(100, 60);
    const alice = budget.hold('user:alice');
    const bob = budget.hold('user:bob');
    alice.take(60);
    bob.take(30);
    alice.give(1000);
    expect([budget.held, alice.held]).toEqual([30, 0]);
    bob.release();
    bob.release();
    expect([budget.held, budget.heldFor('user:bob')]).toEqual([0, 0]);
    expect([budget.peak, budget.peakPerOwner]).toEqual([90, 60]);
    expect(alice.take(60)).toBeNull();
  });
});
