import type { LogEntry } from '../../lib/transparency';
import type { ConsistencyProofDto, InclusionProofDto, LogEntryDto } from './dto/log.dto';
import type { StoredLeaf } from '../transparency-log/transparency.repository';

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** `proof`: the elements, base64 already (held levels encode their own). */
export function toInclusionProofDto(index: number, size: number, leaf: StoredLeaf, proof: string[]): InclusionProofDto {
  return { index, size, leaf_hash: base64(leaf.leafHash), proof, entry: base64(leaf.entry) };
}

export function toConsistencyProofDto(from: number, to: number, proof: string[]): ConsistencyProofDto {
  return { from, to, proof };
}

export function toLogEntryDto(index: number, entry: LogEntry, leafHash: Uint8Array): LogEntryDto {
  return { index, entry: { ...entry }, leaf_hash: base64(leafHash) };
}
