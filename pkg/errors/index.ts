export * from './status-error';
export * from './access-denied';
