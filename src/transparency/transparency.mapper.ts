import type { Hash, LogEntry } from '../lib/transparency';
import type { ConsistencyProofDto, InclusionProofDto, LogEntryDto } from './dto/log.dto';
import type { StoredLeaf } from '../transparency-log/transparency.repository';

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function toInclusionProofDto(index: number, size: number, leaf: StoredLeaf, proof: readonly Hash[]): InclusionProofDto {
  return { index, size, leaf_hash: base64(leaf.leafHash), proof: proof.map(base64), entry: base64(leaf.entry) };
}

export function toConsistencyProofDto(from: number, to: number, proof: readonly Hash[]): ConsistencyProofDto {
  return { from, to, proof: proof.map(base64) };
}

export function toLogEntryDto(index: number, entry: LogEntry, leafHash: Uint8Array): LogEntryDto {
  return { index, entry: { ...entry }, leaf_hash: base64(leafHash) };
}
