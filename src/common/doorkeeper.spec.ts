import { Doorkeeper } from './doorkeeper';

describe('Doorkeeper', () => {
  it('admits a key on its second ask, not its first', () => {
    const doorkeeper = new Doorkeeper();
    expect(doorkeeper.admits('GET /api/plugins?q=dep')).toBe(false);
    expect(doorkeeper.admits('GET /api/plugins?q=dep')).toBe(true);
    expect(doorkeeper.admits('GET /api/plugins?q=dep')).toBe(true);
    expect(doorkeeper.admits('GET /api/plugins?q=depl')).toBe(false);
  });

  it('admits few keys asked once, even among many', () => {
    const doorkeeper = new Doorkeeper();
    let admitted = 0;
    for (let i = 0; i < 100_000; i += 1) if (doorkeeper.admits(`GET /api/plugins/plugin-${i}`)) admitted += 1;
    // One bit a key in a table at most an eighth full: about 5% of first asks collide.
    expect(admitted).toBeLessThan(100_000 * 0.07);
    expect(admitted).toBeGreaterThan(0);
  });

  it('forgets what it saw once the table is an eighth full, so it never fills', () => {
    const doorkeeper = new Doorkeeper();
    doorkeeper.admits('early');
    // Enough keys to mark an eighth of the table even with collisions, and a few thousand after.
    for (let i = 0; i < 150_000; i += 1) doorkeeper.admits(`key-${i}`);
    expect(doorkeeper.admits('early')).toBe(false);
    let admitted = 0;
    for (let i = 0; i < 10_000; i += 1) if (doorkeeper.admits(`later-${i}`)) admitted += 1;
    expect(admitted).toBeLessThan(500);
  });
});
