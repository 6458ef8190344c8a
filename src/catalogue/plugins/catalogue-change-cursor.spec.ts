import { ChangeCursor } from './catalogue-change-cursor';
import type { CatalogueChange } from './catalogue-index.repository';
import type { SearchDocument } from './search-index';

const doc = (id: string, name: string): SearchDocument => ({
  id,
  slug: id,
  name,
  description: null,
  category: null,
  kind: null,
  tags: [],
  extensions: null,
  readme: '',
  featured: false,
  verifiedAt: null,
  latestReleaseAt: null,
  createdAt: 0,
});
const change = (seq: number, pluginId: string, name: string | null): CatalogueChange => ({
  seq,
  pluginId,
  doc: name === null ? null : doc(pluginId, name),
});

describe('ChangeCursor', () => {
  it('takes each change once, and reads on from the newest xmin', () => {
    const cursor = new ChangeCursor();
    cursor.reset(100);
    expect(cursor.take({ changes: [change(1, 'a', 'one'), change(2, 'b', 'two')], xmin: 103 }).map((c) => c.pluginId)).toEqual(['a', 'b']);
    expect(cursor.since).toBe(103);
    expect(cursor.take({ changes: [change(1, 'a', 'one'), change(2, 'b', 'two')], xmin: 103 })).toEqual([]);
    // An older snapshot's xmin never moves the cursor back.
    expect(cursor.take({ changes: [], xmin: 101 })).toEqual([]);
    expect(cursor.since).toBe(103);
  });

  it("never lets an older snapshot's document undo a newer one", () => {
    const cursor = new ChangeCursor();
    cursor.reset(1);
    // The newer snapshot (it saw changes 5 and 7 of plugin a) answers first...
    expect(cursor.take({ changes: [change(5, 'a', 'renamed'), change(7, 'a', 'renamed')], xmin: 20 })).toEqual([change(7, 'a', 'renamed')]);
    // ...then the older one, which saw only change 5 and the document as it was then.
    expect(cursor.take({ changes: [change(5, 'a', 'old')], xmin: 10 })).toEqual([]);
  });

  it('passes deletions on, and forgets everything at a reset', () => {
    const cursor = new ChangeCursor();
    cursor.reset(1);
    expect(cursor.take({ changes: [change(3, 'a', 'x'), change(4, 'a', null)], xmin: 5 })).toEqual([change(4, 'a', null)]);
    cursor.reset(2);
    expect(cursor.take({ changes: [change(4, 'a', null)], xmin: 5 })).toEqual([change(4, 'a', null)]);
  });
});
