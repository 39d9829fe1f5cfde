export * from './sandy-protocol';
