import { childPointer } from './violations';

/**
 * JSON pointers of every key or string holding U+0000, which PostgreSQL text and jsonb cannot
 * store. Iterative, so a deeply nested value cannot exhaust the stack.
 */
export function nulCharacterPointers(value: unknown, root = ''): string[] {
  const found: string[] = [];
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0) {
    const [current, pointer] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) found.push(pointer);
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([item, childPointer(pointer, index)]));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const child = childPointer(pointer, key);
        if (key.includes('\u0000')) found.push(child);
        else pending.push([item, child]);
      }
    }
  }
  return found.sort();
}
