import { parseScope, ScopeSet } from './scopes';

describe('scope grammar', () => {
  it.each(['publish:*', 'publish:my-plugin', 'yank:*', 'yank:a', 'manage-owners:*', 'manage-owners:x1', `publish:${'a'.repeat(64)}`])(
    'accepts %s',
    (text) => {
      expect(parseScope(text).ok).toBe(true);
    },
  );

  it.each([
    'publish',
    'publish:',
    ':*',
    'deploy:*',
    'Publish:*',
    'publish:My-Plugin',
    'publish:1abc',
    'publish:-a',
    'publish:a_b',
    'publish:**',
    'publish:a:b',
    'publish: a',
    `publish:${'a'.repeat(65)}`,
    '',
  ])('refuses %p', (text) => {
    const parsed = parseScope(text);
    expect(parsed.ok).toBe(false);
  });
});

describe('ScopeSet.permits', () => {
  it('lets publish:* claim new slugs and update owned ones, never others', () => {
    const set = ScopeSet.fromStrings(['publish:*']);
    expect(set.permits('publish', 'new-one', 'unclaimed')).toBe(true);
    expect(set.permits('publish', 'mine', 'owned')).toBe(true);
    expect(set.permits('publish', 'theirs', 'other')).toBe(false);
    expect(set.permits('yank', 'mine', 'owned')).toBe(false);
  });

  it('binds a slug scope to that slug and to current ownership', () => {
    const set = ScopeSet.fromStrings(['publish:mine', 'yank:mine']);
    expect(set.permits('publish', 'mine', 'owned')).toBe(true);
    expect(set.permits('publish', 'other-slug', 'owned')).toBe(false);
    expect(set.permits('publish', 'mine', 'unclaimed')).toBe(false);
    expect(set.permits('publish', 'mine', 'other')).toBe(false);
    expect(set.permits('yank', 'mine', 'owned')).toBe(true);
  });

  it('treats yank:* as any owned plugin, never a claim', () => {
    const set = ScopeSet.fromStrings(['yank:*']);
    expect(set.permits('yank', 'a', 'owned')).toBe(true);
    expect(set.permits('yank', 'a', 'unclaimed')).toBe(false);
    expect(set.permits('publish', 'a', 'owned')).toBe(false);
  });

  it('grants nothing for reserved or malformed stored scopes', () => {
    const set = ScopeSet.fromStrings(['manage-owners:*', 'garbage', 'publish:BAD']);
    expect(set.permits('publish', 'a', 'owned')).toBe(false);
    expect(set.permits('yank', 'a', 'owned')).toBe(false);
  });
});
