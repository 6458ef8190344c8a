import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface AssetDigest {
  sha256: string;
  size: number;
}

/**
 * Where an asset's bytes come from. Files and streams are hashed chunk by chunk so verifying a
 * multi-hundred-megabyte asset costs no more memory than a small one.
 */
export type AssetContent = { bytes: Uint8Array } | { path: string } | { stream: AsyncIterable<Uint8Array> };

export async function digestChunks(chunks: AsyncIterable<Uint8Array>): Promise<AssetDigest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

export async function digestAsset(content: AssetContent): Promise<AssetDigest> {
  if ('bytes' in content) {
    return { sha256: createHash('sha256').update(content.bytes).digest('hex'), size: content.bytes.length };
  }
  if ('path' in content) return digestChunks(createReadStream(content.path));
  return digestChunks(content.stream);
}
