/** The transparency log's formats and proofs: framework-free, shared by the server and the CLI. */
export * from './hashing';
export * from './tree-shape';
export * from './proofs';
export * from './note';
export * from './checkpoint';
export * from './tiles';
export * from './log-entry';
