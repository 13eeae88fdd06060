export { csvOf, MAX_TABLE_ROWS, panelContent, type PanelSeries, type PanelTable, type ReportPanel, seriesOf, tableOf } from './report-content';
export { reportEmail } from './report-email';
export { formatTime, type PdfDashboard, type PdfOptions, renderReportPdf, winAnsi } from './report-pdf';
export { nextRun } from './report-schedule';
export { type ReportDelivery, ReportScheduler } from './report-scheduler';
export { LAST_SENT_ANNOTATION, NEXT_RUN_LABEL, reportIdOf, ReportStore, type ReportWriter, type StoredReport, type StoredReportSettings } from './report-store';
