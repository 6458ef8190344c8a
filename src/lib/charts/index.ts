export * from './bar-chart';
export * from './days';
export * from './summary';
