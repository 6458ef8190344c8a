export * from './upstream-release';
