export { type AdminStats, countServer, type CountedRegistries, type ServerCounts } from './server-stats';
export { type Installation, usageReport, type UsageReport } from './usage-report';
