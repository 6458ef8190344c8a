/** The transparency log's size, named in each statement (the log module provides it). */
export abstract class TreeSize {
  abstract size(): Promise<number>;
}
