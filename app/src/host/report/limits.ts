/**
 * Sizes the exporters decide by, in a module without dependencies (the CLI's --help prints them
 * without loading exceljs).
 *
 * Above XLSX_INTERVAL_ROWS_LIMIT interval rows (all devices), the XLSX per-interval sheets are
 * left out unless asked for (`allIntervals`, `cacheproof report --all-intervals`): the workbook
 * then has a sheet saying so and where to find them (CSV, or the option). Writing and opening
 * millions of rows in a spreadsheet is slow (docs/report.md, "Performance"); the report tables,
 * the hourly sheet among them, are always written.
 */
export const XLSX_INTERVAL_ROWS_LIMIT = 200_000;
