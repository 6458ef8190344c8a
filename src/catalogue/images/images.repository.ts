import { type DataSource, type EntityManager, In, IsNull } from 'typeorm';
import type { EncodedImage } from './image-encoder';
import { ImageEntity } from './entities/image.entity';
import { ImageProxyEntryEntity, type ImageProxyStatus } from './entities/image-proxy-entry.entity';

export const WEBP = 'image/webp';

/** A picture as served: its bytes and what the response says of them. */
export interface StoredImage {
  sha256: string;
  contentType: string;
  bytes: Buffer;
}

/** What the proxy keeps for a URL: the picture, or the failure it answered (a problem code and detail). */
export type ProxyEntry = { image: StoredImage } | { failure: Exclude<ImageProxyStatus, 'ok'>; detail: string };

/** Every query on stored pictures and the README image proxy's cache. */
export class ImagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores encodings as confirmed (inside the caller's transaction when given); one already
   * stored keeps its bytes and is confirmed if it was pending.
   */
  async putAll(images: readonly EncodedImage[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    for (const image of uniqueBySha256(images)) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(ImageEntity)
        .values({
          sha256: image.sha256,
          contentType: WEBP,
          width: image.width,
          height: image.height,
          bytes: image.bytes,
          pendingUntil: null,
        })
        .orUpdate(['pending_until'], ['sha256'])
        .execute();
    }
  }

  /**
   * Stores encodings as pending until `until`. One already stored keeps its bytes: a confirmed one
   * stays confirmed, a pending one (another ingest's, of the same picture) stays pending until the
   * later of the two times.
   */
  async putPending(images: readonly EncodedImage[], until: Date): Promise<void> {
    for (const image of uniqueBySha256(images)) {
      await this.dataSource.query(
        `INSERT INTO image (sha256, content_type, width, height, bytes, pending_until) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (sha256) DO UPDATE SET pending_until = GREATEST(image.pending_until, EXCLUDED.pending_until) WHERE image.pending_until IS NOT NULL`,
        [image.sha256, WEBP, image.width, image.height, image.bytes, until],
      );
    }
  }

  /** Confirms pending encodings (in the caller's transaction when given): they are served and kept from now on. */
  async confirm(sha256s: readonly string[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (sha256s.length === 0) return;
    await manager
      .createQueryBuilder()
      .update(ImageEntity)
      .set({ pendingUntil: null })
      .where({ sha256: In([...new Set(sha256s)]) })
      .andWhere('pending_until IS NOT NULL')
      .execute();
  }

  /** Deletes pending encodings whose time passed before `now` (their ingest never recorded them); how many. */
  async deleteExpiredPending(now: Date): Promise<number> {
    const result = await this.dataSource.manager
      .createQueryBuilder()
      .delete()
      .from(ImageEntity)
      .where('pending_until < :now', { now })
      .execute();
    return result.affected ?? 0;
  }

  async find(sha256: string): Promise<StoredImage | null> {
    const row = await this.dataSource.manager
      .getRepository(ImageEntity)
      .findOne({ where: { sha256, pendingUntil: IsNull() }, select: { sha256: true, contentType: true, bytes: true } });
    return row ? { sha256: row.sha256, contentType: row.contentType, bytes: row.bytes } : null;
  }

  /** Which of these encodings are stored and confirmed already (rows never change: one stored need not be read again). */
  async storedAmong(sha256s: readonly string[]): Promise<Set<string>> {
    if (sha256s.length === 0) return new Set();
    const rows = await this.dataSource.manager
      .getRepository(ImageEntity)
      .find({ where: { sha256: In([...sha256s]), pendingUntil: IsNull() }, select: { sha256: true } });
    return new Set(rows.map((row) => row.sha256));
  }

  /** What the proxy keeps for a URL, unless it expired by `now`. */
  async findProxied(urlSha256: string, now: Date): Promise<ProxyEntry | null> {
    const row = await this.dataSource.manager
      .getRepository(ImageProxyEntryEntity)
      .createQueryBuilder('e')
      .select(['e.status', 'e.detail', 'e.sha256', 'e.contentType', 'e.bytes'])
      .where('e.url_sha256 = :urlSha256 AND e.expires_at > :now', { urlSha256, now })
      .getOne();
    if (!row) return null;
    if (row.status !== 'ok') return { failure: row.status, detail: row.detail ?? '' };
    return { image: { sha256: row.sha256!, contentType: row.contentType!, bytes: row.bytes! } };
  }

  /** Keeps a proxied picture, or a failure, until `expiresAt`, replacing what was kept, and sweeps entries that expired. */
  async putProxied(urlSha256: string, entry: ProxyEntry, now: Date, expiresAt: Date): Promise<void> {
    const values =
      'image' in entry
        ? {
            status: 'ok' as const,
            detail: null,
            sha256: entry.image.sha256,
            contentType: entry.image.contentType,
            bytes: entry.image.bytes,
          }
        : { status: entry.failure, detail: entry.detail.slice(0, 500), sha256: null, contentType: null, bytes: null };
    await this.dataSource.transaction(async (manager) => {
      await manager.createQueryBuilder().delete().from(ImageProxyEntryEntity).where('expires_at <= :now', { now }).execute();
      await manager
        .createQueryBuilder()
        .insert()
        .into(ImageProxyEntryEntity)
        .values({ urlSha256, ...values, fetchedAt: now, expiresAt })
        .orUpdate(['status', 'detail', 'sha256', 'content_type', 'bytes', 'fetched_at', 'expires_at'], ['url_sha256'])
        .execute();
    });
  }
}

function uniqueBySha256(images: readonly EncodedImage[]): EncodedImage[] {
  return [...new Map(images.map((image) => [image.sha256, image])).values()];
}
