/**
 * Calendar dates people type (a report cover's date, the CLI's window times): real dates in
 * years {@link YEAR_MIN}…{@link YEAR_MAX}. `Date.parse` would roll `2025-02-30` over to 2 March
 * and give NaN for `2026-13-45`; these are refused instead, with the range in the sentence.
 */
export const YEAR_MIN = 1970;
export const YEAR_MAX = 9999;
export const CALENDAR_DATE_RANGE = `a real calendar date from ${YEAR_MIN}-01-01 to ${YEAR_MAX}-12-31`;

/** Whether year-month-day (month 1…12) is a real calendar date in the range. Example: (2024, 2, 29) → true, (2025, 2, 29) → false. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (!(Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day))) return false;
  if (!(year >= YEAR_MIN && year <= YEAR_MAX && month >= 1 && month <= 12 && day >= 1 && day <= 31)) return false;
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Whether `YYYY-MM-DD` text is a real calendar date in the range. */
export function isCalendarDateText(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}
