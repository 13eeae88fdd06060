export { createPostgresPlugin, POSTGRES_HEALTH_OK, rowLimitNotice } from './postgres-plugin';
