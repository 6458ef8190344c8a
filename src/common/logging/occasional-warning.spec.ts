import { OccasionalWarning } from './occasional-warning';

describe('OccasionalWarning', () => {
  it('says the first warning, then at most one per interval', () => {
    let now = 1_000;
    const said: string[] = [];
    const warning = new OccasionalWarning(
      (m) => said.push(m),
      () => now,
      60_000,
    );
    warning.say('a');
    now += 59_999;
    warning.say('b');
    now += 1;
    warning.say('c');
    expect(said).toEqual(['a', 'c']);
  });
});
