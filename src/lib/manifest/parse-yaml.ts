/*
 * Why the `yaml` package and not js-yaml (which the design card named): a manifest arrives from
 * strangers, so the parser must be told to refuse what a manifest never needs. `yaml` exposes
 * those controls directly: `stringKeys` (every key a string, so `1:` and "1": cannot collide
 * silently), `uniqueKeys`, a `schema: 'core'` choice with no custom tags, `maxAliasCount`, and a
 * concrete syntax tree we can measure for nesting depth before anything recursive runs over it.
 * It also keeps every node's source range, so a violation can point at a line. js-yaml has no
 * alias budget, no depth limit and no way to look at the tree before it builds objects; it stays
 * installed for other code but the manifest does not use it.
 */
import { Composer, CST, isAlias, isMap, isScalar, isSeq, LineCounter, Parser } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import { FORBIDDEN_KEYS, MAX_NESTING_DEPTH } from './constants';
import type { ParseResult, Violation } from './types';
import { childPointer, violation } from './violations';

const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));

const COMPOSE_OPTIONS = {
  version: '1.2',
  schema: 'core',
  stringKeys: true,
  // Duplicates are found below instead, where the JSON pointer of the repeated key is known.
  uniqueKeys: false,
  merge: false,
  strict: true,
} as const;

function where(lines: LineCounter, offset: number): string {
  const { line, col } = lines.linePos(offset);
  return `line ${line}, column ${col}`;
}

/**
 * The deepest collection nesting in the syntax tree, walked with an explicit stack. The composer
 * recurses once per level (and at around a thousand levels exhausts memory), so this runs first.
 */
function exceedsDepth(tokens: readonly CST.Token[]): CST.Token | undefined {
  const pending: Array<{ token: CST.Token | null | undefined; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { token, depth } = next;
    if (!token) continue;
    if (token.type === 'document') {
      pending.push({ token: token.value, depth });
    } else if (CST.isCollection(token)) {
      if (depth + 1 > MAX_NESTING_DEPTH) return token;
      for (const item of token.items) {
        pending.push({ token: item.key, depth: depth + 1 }, { token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** Walks the composed tree once for everything a manifest refuses that YAML itself allows. */
class TreeChecker {
  readonly violations: Violation[] = [];

  constructor(private readonly lines: LineCounter) {}

  check(node: unknown, pointer: string): void {
    if (isAlias(node)) {
      this.violations.push(violation(pointer, `must not be a YAML alias (*${node.source}); write the value out`));
      return;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
    const tag = (node as YamlNode).tag;
    if (tag !== undefined && !CORE_TAGS.has(tag)) {
      this.violations.push(violation(pointer, `must not use the YAML tag ${tag}; only plain YAML values are allowed`));
      return;
    }
    if (isSeq(node)) node.items.forEach((item, index) => this.check(item, childPointer(pointer, index)));
    if (isMap(node)) this.checkMap(node.items, pointer);
  }

  private checkMap(pairs: ReadonlyArray<{ key: unknown; value: unknown }>, pointer: string): void {
    const firstSeenAt = new Map<string, number>();
    for (const { key, value } of pairs) {
      // stringKeys has the composer report every non-string key, so only strings get this far.
      if (!isScalar(key) || typeof key.value !== 'string') continue;
      const name = key.value;
      const memberPointer = childPointer(pointer, name);
      const offset = key.range?.[0] ?? 0;
      const firstOffset = firstSeenAt.get(name);
      if (FORBIDDEN_KEYS.has(name)) {
        this.violations.push(violation(memberPointer, 'is a reserved key and not allowed'));
        continue;
      }
      if (firstOffset !== undefined) {
        const first = this.lines.linePos(firstOffset).line;
        this.violations.push(violation(memberPointer, `duplicate key at ${where(this.lines, offset)} (first defined at line ${first})`));
        continue;
      }
      firstSeenAt.set(name, offset);
      this.check(value, memberPointer);
    }
  }
}

export function parseYaml(text: string): ParseResult {
  const lines = new LineCounter();
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const violations: Violation[] = [];

  const tooDeep = exceedsDepth(tokens);
  if (tooDeep) {
    const message = `must not nest deeper than ${MAX_NESTING_DEPTH} levels (at ${where(lines, tooDeep.offset)})`;
    return { ok: false, violations: [violation('', message)] };
  }
  for (const token of tokens) {
    if (token.type === 'directive') violations.push(violation('', `must not use YAML directives (${token.source.trim()})`));
  }

  const documents: Document.Parsed[] = [...new Composer(COMPOSE_OPTIONS).compose(tokens, true, text.length)];
  if (documents.length > 1) violations.push(violation('', `must hold one YAML document, found ${documents.length}`));
  const document = documents[0];
  for (const problem of [...document.errors, ...document.warnings]) {
    // Unknown tags are reported by the tree check, with their path.
    if (problem.code === 'TAG_RESOLVE_FAILED') continue;
    violations.push(violation('', `is not valid YAML: ${problem.message.split('\n')[0]} at ${where(lines, problem.pos[0])}`));
  }
  const checker = new TreeChecker(lines);
  checker.check(document.contents, '');
  violations.push(...checker.violations);
  if (violations.length > 0) return { ok: false, violations };

  try {
    // Aliases were refused above; a zero budget makes any that slipped through fail here instead.
    return { ok: true, value: document.toJS({ maxAliasCount: 0 }) };
  } catch (error) {
    return { ok: false, violations: [violation('', `could not be read as YAML: ${(error as Error).message}`)] };
  }
}
