import { Injectable } from '@nestjs/common';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** Express decodes parameters while matching and throws on a malformed escape: such a path matches nothing. */
function matches(layer: RouterLayer, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    return false;
  }
}

/**
 * Knows which methods each registered route accepts, so an unknown method on a known path is
 * answered 405 with `Allow` rather than a misleading 404.
 */
@Injectable()
export class RouteTable {
  private layers: RouterLayer[] = [];
  private readonly literals = new Map<string, ReadonlySet<string>>();

  /** Called once the HTTP adapter has every route registered. */
  load(layers: RouterLayer[]): void {
    this.layers = layers.filter((layer) => layer.route);
    this.literals.clear();
  }

  /**
   * The literal path segments that routes spell right after `prefix` (`/api/plugins/` → `mine`
   * for a `/api/plugins/mine`), where a parameter elsewhere (`:slug`) would match them too: a
   * handler answering ahead of the router leaves such a path to the router.
   */
  literalSegmentsAfter(prefix: string): ReadonlySet<string> {
    let found = this.literals.get(prefix);
    if (!found) {
      const segments = this.layers
        .map((layer) => layer.route!.path)
        .filter((path) => path.startsWith(prefix))
        .map((path) => path.slice(prefix.length).split('/')[0])
        .filter((segment) => segment !== '' && !segment.startsWith(':'));
      found = new Set(segments);
      this.literals.set(prefix, found);
    }
    return found;
  }

  methodsFor(path: string): string[] {
    const methods = new Set<string>();
    for (const layer of this.layers) {
      if (!matches(layer, path)) continue;
      for (const [method, on] of Object.entries(layer.route!.methods)) {
        if (on && method !== '_all') methods.add(method.toUpperCase());
      }
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }

  /** The template (`/api/plugins/:slug`) of the route that serves this method and path, if any. */
  templateFor(method: string, path: string): string | null {
    const wanted = method === 'HEAD' ? 'get' : method.toLowerCase();
    const layer = this.layers.find((l) => l.route!.methods[wanted] && matches(l, path));
    return layer ? layer.route!.path : null;
  }
}
