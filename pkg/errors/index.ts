export * from './status-error';
export * from './access-denied';
export * from './legacy-invalid';
