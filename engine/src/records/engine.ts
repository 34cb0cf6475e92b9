/** A capture's cache-engine tables as plain data (docs/capture-schema.md `engine_actions`, `engine_stats`). */

/** One step a cache-engine adapter ran (a row of `engine_actions`). */
export interface EngineAction {
  /** UTC epoch ms. */
  startMs: number;
  endMs: number;
  adapter: string;
  device: string;
  /** `enable` at the scheduled switch, `restore` at the end. */
  action: string;
  /** The argument vector or sysfs write, in words. */
  step: string;
  output: string;
  /** Null for a sysfs write, a timeout or a command that could not start. */
  exitStatus: number | null;
  ok: boolean;
  modeBefore: string | null;
  modeAfter: string | null;
}

/** One engine counter read (a row of `engine_stats`). */
export interface EngineStatSample {
  /** UTC epoch ms. */
  atMs: number;
  name: string;
  value: number;
  unit: string;
  /** `cumulative`, `current`, or an engine's decaying average (`decaying-5min`, …). */
  window: string;
}

/** What a capture says about its cache engine (absent on captures recorded without an adapter). */
export interface EngineRecords {
  adapter: string;
  device: string;
  /** In time order. */
  actions: EngineAction[];
  /** In time order (the host may thin long captures: docs/capture-schema.md § Reading). */
  stats: EngineStatSample[];
}
