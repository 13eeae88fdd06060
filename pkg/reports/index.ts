export { reportIdOf, ReportStore, type ReportWriter, type StoredReport, type StoredReportSettings } from './report-store';
