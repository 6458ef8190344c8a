/**
 * Pictures stored as soon as they are encoded (ImageStore), against a real database (PGlite by
 * default, PostgreSQL with DATABASE_URL): pending until a release confirms them, not served
 * meanwhile, deleted once their time passed without a confirmation, and never a confirmed one.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock';
import type { EncodedImage } from '../../src/catalogue/images/image-encoder';
import { ImageStore, PENDING_PICTURE_MS, PENDING_SWEEP_INTERVAL_MS } from '../../src/catalogue/images/image-store';
import { ImagesRepository } from '../../src/catalogue/images/images.repository';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

let opened: OpenTestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
});
afterAll(() => opened?.close());

class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

function encoding(): EncodedImage {
  const bytes = randomBytes(64);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), width: 8, height: 8, bytes };
}

const pendingUntil = async (sha256: string): Promise<Date | null | undefined> =>
  (await dataSource.query('SELECT pending_until FROM image WHERE sha256 = $1', [sha256]))[0]?.pending_until;

describe('ImageStore', () => {
  let clock: MovableClock;
  let images: ImagesRepository;
  let store: ImageStore;
  beforeEach(() => {
    clock = new MovableClock();
    images = new ImagesRepository(dataSource);
    store = new ImageStore(images, clock);
  });

  it('keeps a picture pending, unserved, until a transaction confirms it', async () => {
    const picture = encoding();
    await store.keepPending([picture]);
    expect((await pendingUntil(picture.sha256))!.getTime()).toBeGreaterThan(Date.now() + PENDING_PICTURE_MS - 60_000);
    expect(await images.find(picture.sha256)).toBeNull();
    expect(await images.storedAmong([picture.sha256])).toEqual(new Set());

    await dataSource.transaction((manager) => images.confirm([picture.sha256], manager));
    expect(await pendingUntil(picture.sha256)).toBeNull();
    expect((await images.find(picture.sha256))?.bytes.equals(picture.bytes)).toBe(true);
    expect(await images.storedAmong([picture.sha256])).toEqual(new Set([picture.sha256]));
  });

  it('leaves a confirmed picture confirmed when it is kept pending again, and a rolled-back confirmation pending', async () => {
    const picture = encoding();
    await images.putAll([picture]);
    await store.keepPending([picture]);
    expect(await pendingUntil(picture.sha256)).toBeNull();

    const other = encoding();
    await store.keepPending([other]);
    await expect(
      dataSource.transaction(async (manager) => {
        await images.confirm([other.sha256], manager);
        throw new Error('the release failed after its pictures were confirmed');
      }),
    ).rejects.toThrow('the release failed');
    expect(await pendingUntil(other.sha256)).not.toBeNull();
  });

  it('confirms a pending picture when putAll stores the same encoding (a mirror, a manifest refresh)', async () => {
    const picture = encoding();
    await store.keepPending([picture]);
    await images.putAll([picture]);
    expect(await pendingUntil(picture.sha256)).toBeNull();
  });

  it('deletes pending pictures past their time when pictures are next stored, at most once an interval, and nothing confirmed', async () => {
    const abandoned = encoding();
    const recorded = encoding();
    await store.keepPending([abandoned, recorded]);
    await images.confirm([recorded.sha256]);

    // A later store of the same picture by another ingest extends its time.
    const shared = encoding();
    await store.keepPending([shared]);
    clock.offsetMs = PENDING_PICTURE_MS / 2;
    await store.keepPending([shared]);

    clock.offsetMs = PENDING_PICTURE_MS + 60_000;
    const next = encoding();
    await store.keepPending([next]);
    expect(await pendingUntil(abandoned.sha256)).toBeUndefined();
    expect(await pendingUntil(recorded.sha256)).toBeNull();
    expect(await pendingUntil(shared.sha256)).not.toBeUndefined();
    expect(await pendingUntil(next.sha256)).not.toBeUndefined();

    // Within the interval no second sweep runs, even with an expired row (one whose time passed meanwhile).
    const expired = encoding();
    await store.keepPending([expired]);
    await dataSource.query('UPDATE image SET pending_until = $2 WHERE sha256 = $1', [expired.sha256, clock.now()]);
    clock.offsetMs += PENDING_SWEEP_INTERVAL_MS - 60_000;
    await store.keepPending([encoding()]);
    expect(await pendingUntil(expired.sha256)).not.toBeUndefined();
    clock.offsetMs += 60_000;
    await store.keepPending([encoding()]);
    expect(await pendingUntil(expired.sha256)).toBeUndefined();
    expect(await pendingUntil(shared.sha256)).not.toBeUndefined();
    expect(await pendingUntil(recorded.sha256)).toBeNull();
  });
});
