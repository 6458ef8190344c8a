/** Signed freshness of `latest` answers: the statement, its signing and its verification. Framework-free. */
export * from './errors';
export * from './statement';
export * from './verify';
