/**
 * The report model (issue 7): plain, language-neutral data that every exporter (HTML, PDF,
 * XLSX, CSV) draws. Text is a catalog key with parameters ({@link Msg}); numbers keep their raw
 * value and say how the app displays them ({@link Val}), so that one model gives the same figures
 * in every format and language. Nothing here reads a clock: dates come in as epoch ms.
 */
import type { AnalysisWarning } from '../benefit/result.ts';
import type { ConfigResult, LineId, LineItem } from '../plan/result.ts';
import type { PlanVerdict } from '../plan/verdict.ts';
import type { ReportKey } from './keys.ts';
import type { DecisionBlock } from './decision.ts';

export const REPORT_FORMAT_VERSION = 1;

/** Units a value or column can carry (their symbols are looked up per language by the exporter). */
export type Unit = 'iops' | 'ms' | 'mbps' | 'mb' | 'gb' | 'bytes' | 'ios' | 's' | 'usd' | 'usdPerIops' | 'usdPerTb' | 'tb' | 'percent' | 'count' | 'watts' | 'requests' | 'us';

/**
 * One value as the report shows it. `v` is the raw figure (the analysis JSON's number, never
 * rounded); the kind and `d` (decimals) say how it is displayed; `why` is the engine's null reason.
 * - `num`: fixed `d` decimals, optional unit; `pct`: a 0–100 percent with `d` decimals;
 * - `sig`: a measured value with the dashboard's precision: 3 significant digits below 100
 *   (0.182, 12.3), whole numbers from 100; `ms`: a response time with that precision and its unit;
 * - `x`: a factor (`2.99×`, same precision); `ci`: a 95% interval of a percent, factor or value;
 * - `time`: a UTC time; `str`: verbatim text from the capture or the user (never translated, always escaped);
 * - `msg`: nested translatable text; `list`: values joined (default `, `); `warning`: an analysis warning (translated by code);
 * - `tcoLine`, `tcoDetail`, `tcoLife`, `tcoWarn`, `tcoVerdict`: TCO texts shared with `cacheproof tco`.
 */
export type Val =
  | { k: 'num'; v: number | null; d: number; unit?: Unit; why?: string }
  | { k: 'pct'; v: number | null; d: number; why?: string }
  | { k: 'sig'; v: number | null; unit?: Unit; why?: string }
  /** A size in bytes, printed in the decimal unit that fits (`369 MB`, `1.2 TB`). */
  | { k: 'bytes'; v: number | null; why?: string }
  | { k: 'ms'; v: number | null; why?: string }
  | { k: 'x'; v: number | null; why?: string }
  | { k: 'ci'; low: number; high: number; of: 'pct' | 'x' | 'sig'; d: number }
  | { k: 'time'; ms: number; style: 'datetime' | 'date' | 'time' }
  | { k: 'str'; s: string }
  | { k: 'msg'; m: Msg }
  | { k: 'list'; items: Val[]; sep?: string }
  | { k: 'warning'; w: AnalysisWarning }
  | { k: 'tcoLine'; id: LineId }
  | { k: 'tcoDetail'; line: LineItem }
  | { k: 'tcoLife'; config: ConfigResult; years: number; cache: boolean }
  | { k: 'tcoWarn'; code: string; params: Record<string, number | string> }
  /** The TCO bottom line (engine plan/verdict.ts), worded by the app's verdict catalog as `cacheproof tco` and the Planner word it. */
  | { k: 'tcoVerdict'; verdict: PlanVerdict }
  | { k: 'empty' };

/** Translatable text: a key of the `report` catalog and its parameters (themselves values). */
export interface Msg {
  key: ReportKey;
  p?: Record<string, Val>;
}

export interface Column {
  head: Msg;
  unit?: Unit;
  align: 'left' | 'right';
}

export interface TableRow {
  cells: Val[];
  /** A total or summary row. */
  strong?: boolean;
  /** A heatmap row: each cell's shade, 0..1 (its share of the table's largest value), null unshaded; aligned with `cells`. */
  heat?: (number | null)[];
}

export interface Table {
  /** Stable id (used for XLSX sheet names and test ids). */
  id: string;
  title: Msg;
  columns: Column[];
  rows: TableRow[];
  caption?: Msg;
  /** XLSX: give this table its own sheet. */
  sheet?: boolean;
}

/** One headline figure as the dashboard's card shows it. */
export interface Card {
  /** The headline set: what the server did (IOPS at queue depth 1 is a detail, never a card). */
  id: 'iosSaved' | 'latency' | 'throughput' | 'cacheServed';
  title: Msg;
  value: Val[];
  subs: Msg[];
}

export interface ChartSeries {
  name: Val;
  /** Index into the app's one palette by meaning (colors.ts `COLOR`: front, backing, cache, other, before, after, then categories). */
  color: number;
  /** [x, y]: x is UTC epoch ms (time axis) or a category index (bars); y null = no data. */
  points: [number, number | null][];
  dashed?: boolean;
  /**
   * Line width, px (1.4 when absent). Wider lines are drawn first, underneath: the backing drives'
   * line ({@link UNDER_WIDTH}) lies beneath the front's where the two coincide (before the switch)
   * and shows on both sides of it.
   */
  width?: number;
  /** An explicit colour (CSS), used instead of the palette index: a dashboard chart exported as drawn. */
  rgb?: string;
}

/** A chart the exporters draw (as SVG in HTML/PDF). Deterministic and complete: axes, units, legend, bands, text alternative. */
export interface ChartSpec {
  id: string;
  kind: 'line' | 'bar' | 'stacked-bar';
  title: Msg;
  /** `number`: a numeric axis (a dashboard chart's linear x, exported as SVG), ticks at nice steps. */
  x: {
    kind: 'time' | 'category' | 'year' | 'number'; label: Msg; categories?: Val[];
    /** `number` only: a logarithmic axis, and the ticks to draw (value and label, as the dashboard draws them). */
    log?: boolean; ticks?: { v: number; label: string }[];
  };
  y: { label: Msg; unit: Unit; min?: number };
  series: ChartSeries[];
  bands?: { fromMs: number; toMs: number; label: Msg; tone: 'baseline' | 'warmup' | 'measure' }[];
  /** Horizontal reference lines (latency targets). */
  refLines?: { y: number; label: Msg }[];
  /** The chart said in words (accessibility and the PDF's text layer). */
  summary: Msg;
  note?: Msg;
}

export type Block =
  | { type: 'paragraph'; text: Msg }
  | { type: 'cards'; cards: Card[] }
  | { type: 'sentences'; items: Msg[] }
  | { type: 'facts'; rows: { label: Msg; value: Val[] }[] }
  | { type: 'table'; table: Table }
  | { type: 'chart'; chart: ChartSpec }
  | { type: 'notes'; tone: 'info' | 'warning'; items: Val[] }
  | { type: 'subheading'; text: Msg; sub?: Val };

export type SectionId = 'decision' | 'summary' | 'method' | 'results' | 'sizing' | 'tco' | 'caveats' | 'appendix';

export interface Section {
  id: SectionId;
  title: Msg;
  blocks: Block[];
}

/** What the person preparing the report types in (all optional; all verbatim, all escaped). */
export interface CoverInput {
  title?: string;
  customer?: string;
  server?: string;
  author?: string;
  /** Prepared on, UTC epoch ms; default: the generation time. */
  preparedMs?: number;
}

export interface Cover {
  title: Val;
  subtitle: Msg;
  rows: { label: Msg; value: Val[] }[];
}

/** A summary figure with its raw numbers and the JSON path it comes from (XLSX/CSV summary, tests). */
export interface SummaryRow {
  id: string;
  label: Msg;
  unit: Unit | null;
  /** JSON path in the analyze output, or `tco.…` for TCO rows. */
  path: string;
  before: number | null;
  after: number | null;
  value: number | null;
  low: number | null;
  high: number | null;
  devices: string;
}

/** The whole report. */
export interface ReportModel {
  formatVersion: typeof REPORT_FORMAT_VERSION;
  /** `full`: cover, contents and every section; `short`: the two pages for managers (short.ts). */
  form: 'full' | 'short';
  /** Generation time, UTC epoch ms (passed in). */
  generatedMs: number;
  cover: Cover;
  /** Page footer text (customer and title). */
  footer: Val;
  sections: Section[];
  /** The decision block (decision.ts), also the first section: every format draws it first. Absent in a fleet report without a plan. */
  decision?: DecisionBlock;
  summary: SummaryRow[];
  /** Every chart of the sections, in order (exporters and tests count them). */
  charts: ChartSpec[];
  /** Tables the spreadsheet writes as sheets of their own but no printed format draws (too long to print: the fleet's IOPS at each moment). */
  sheets?: Table[];
  /** Devices whose per-interval data the XLSX/CSV exporters write, in order. */
  intervalDevices: { device: string; role: string }[];
}
