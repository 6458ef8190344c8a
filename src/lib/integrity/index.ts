/** Release signing and verification: framework-free, shared by the server, the CLI and host runtimes. */
export * from './types';
export * from './canonical-json';
export * from './base64url';
export * from './keys';
export * from './jws';
export * from './asset-digest';
export * from './key-resolver';
export * from './signed-payload';
export * from './verification-errors';
export * from './verify';
