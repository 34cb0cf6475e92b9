/** Locale-aware formatting of the numbers people read: the shared formatter (one per language). */
export { fmtDateTime, fmtDuration, fmtNumber, fmtPercent, fmtSig, fmtSignedPercent, fmtTime, fmtUtc } from '../shared/i18n/numbers.ts';
