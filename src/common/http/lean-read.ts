import { HEADERS_METADATA } from '@nestjs/common/constants';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * What the catalogue lane (src/catalogue-lane.ts) asks of a feature that answers some anonymous
 * reads ahead of Express: the read for a request, or null to leave it to the router. Each
 * feature keeps its own (src/catalogue/plugins/lean-catalogue-reads.ts, src/news/changes/lean-changes-reads.ts).
 */
export interface LeanReads {
  readFor(req: LeanRequest): LeanRead | null;
}

export type AnswerHeaders = readonly { name: string; value: string }[];

/** The headers a controller method declares with `@Header`: one source for both paths. */
export function declaredHeaders(method: (...args: never[]) => unknown): AnswerHeaders {
  return (Reflect.getMetadata(HEADERS_METADATA, method) as AnswerHeaders | undefined) ?? [];
}

/** A 200 answer, as the controller would give it: its body (or the body's JSON text) and the headers the route declares. */
export type LeanAnswer = ({ body: unknown; json?: undefined } | { json: string }) & { headers: AnswerHeaders };

/** A read a LeanReads can answer; `answer` rejects for everything but a 200 (the controllers answer those). */
export interface LeanRead {
  /** The route it stands in for, as the router would name it (metrics label by it). */
  template: string;
  answer(): Promise<LeanAnswer>;
}

/** What a read needs of the request: its path as received (escapes and all, as Express's `req.path`), its query as Express would parse it, its headers. */
export interface LeanRequest {
  path: string;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}
