/**
 * Publisher-token scopes: `<action>:<target>` where the action is publish, yank or manage-owners
 * and the target is `*` or a plugin slug. Framework-free: the server and the CLI share it.
 */
export const SCOPE_ACTIONS = ['publish', 'yank', 'manage-owners'] as const;
export type ScopeAction = (typeof SCOPE_ACTIONS)[number];

/** The manifest `name` pattern, which is also the slug pattern. */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]*$/;
export const SLUG_MAX_LENGTH = 64;

export interface Scope {
  action: ScopeAction;
  /** `*` or a slug. */
  target: string;
}

export type ParsedScope = { ok: true; scope: Scope } | { ok: false; message: string };

export function parseScope(text: string): ParsedScope {
  if (typeof text !== 'string') return { ok: false, message: 'must be a string' };
  const colon = text.indexOf(':');
  if (colon < 0) return { ok: false, message: `"${text}" is not <action>:<target>` };
  const action = text.slice(0, colon);
  const target = text.slice(colon + 1);
  if (!(SCOPE_ACTIONS as readonly string[]).includes(action)) {
    return { ok: false, message: `unknown action "${action}"; expected one of ${SCOPE_ACTIONS.join(', ')}` };
  }
  if (target !== '*' && (!SLUG_PATTERN.test(target) || target.length > SLUG_MAX_LENGTH)) {
    return {
      ok: false,
      message: `target "${target}" must be * or a plugin slug (${SLUG_PATTERN.source}, at most ${SLUG_MAX_LENGTH} characters)`,
    };
  }
  return { ok: true, scope: { action: action as ScopeAction, target } };
}

/**
 * How the token's owner relates to the slug right now. Rights never exceed current ownership:
 * a scope naming a slug the owner lost permits nothing.
 */
export type SlugOwnership = 'owned' | 'unclaimed' | 'other';

export class ScopeSet {
  private constructor(readonly scopes: readonly Scope[]) {}

  /** Parses stored scopes; invalid ones (which creation refuses) are ignored, never widened. */
  static fromStrings(values: readonly string[]): ScopeSet {
    const scopes: Scope[] = [];
    for (const value of values) {
      const parsed = parseScope(value);
      if (parsed.ok) scopes.push(parsed.scope);
    }
    return new ScopeSet(scopes);
  }

  /**
   * `publish:*` also creates new plugins (auto-claim); a slug-bound scope only acts on a slug
   * the owner owns; `manage-owners` is reserved and permits nothing yet.
   */
  permits(action: 'publish' | 'yank', slug: string, ownership: SlugOwnership): boolean {
    if (ownership === 'other') return false;
    return this.scopes.some((scope) => {
      if (scope.action !== action) return false;
      if (ownership === 'unclaimed') return action === 'publish' && scope.target === '*';
      return scope.target === '*' || scope.target === slug;
    });
  }
}
