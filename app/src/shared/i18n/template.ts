/**
 * The words of the TCO template (engine/src/plan/template.ts, `EXAMPLE_SCENARIO`) in every
 * language: its title, and the labels of its drive models and configurations, keyed by id.
 * The engine keeps the English template as data (it stays language-neutral); the host
 * (`plan.fromAnalysis`), `cacheproof tco --from-capture --lang` and the Planner screen put a
 * prefilled scenario in the user's language with {@link localizeTemplate}.
 *
 * The English texts equal the engine's template labels (checked by app/test/plan-channel.test.ts).
 */
import type { Catalog, Lang } from './types.ts';
import { LANGS, translate } from './types.ts';

export type TemplateKey =
  | 'title'
  | 'titleFor'
  | 'drive.toshiba-mg10aca20te'
  | 'drive.micron-7400-pro-m2-3.84tb'
  | 'config.all-hdd'
  | 'config.hdd-ssd-cache'
  | 'config.hdd-ram-cache'
  | 'config.all-flash-nvme';

export const template: Catalog<TemplateKey> = {
  en: {
    title: 'OLTP volume: cache versus spindles versus flash',
    titleFor: '{name}: cache versus spindles versus flash',
    'drive.toshiba-mg10aca20te': 'Toshiba MG10ACA20TE 20 TB 7,200 rpm SATA',
    'drive.micron-7400-pro-m2-3.84tb': 'Micron 7400 PRO M.2 3.84 TB NVMe (1 DWPD)',
    'config.all-hdd': 'All HDD, RAID 10',
    'config.hdd-ssd-cache': 'HDD RAID 5 + SSD cache',
    'config.hdd-ram-cache': 'HDD RAID 10 + RAM read cache',
    'config.all-flash-nvme': 'All-flash NVMe, RAID 5',
  },
  fr: {
    title: 'Volume OLTP : cache, disques rotatifs ou flash',
    titleFor: '{name} : cache, disques rotatifs ou flash',
    'drive.toshiba-mg10aca20te': 'Toshiba MG10ACA20TE 20 To 7 200 tr/min SATA',
    'drive.micron-7400-pro-m2-3.84tb': 'Micron 7400 PRO M.2 3,84 To NVMe (1 DWPD)',
    'config.all-hdd': '100 % HDD, RAID 10',
    'config.hdd-ssd-cache': 'HDD en RAID 5 + cache SSD',
    'config.hdd-ram-cache': 'HDD en RAID 10 + cache de lecture en RAM',
    'config.all-flash-nvme': '100 % flash NVMe, RAID 5',
  },
  es: {
    title: 'Volumen OLTP: caché, discos giratorios o flash',
    titleFor: '{name}: caché, discos giratorios o flash',
    'drive.toshiba-mg10aca20te': 'Toshiba MG10ACA20TE 20 TB 7.200 rpm SATA',
    'drive.micron-7400-pro-m2-3.84tb': 'Micron 7400 PRO M.2 3,84 TB NVMe (1 DWPD)',
    'config.all-hdd': 'Solo HDD, RAID 10',
    'config.hdd-ssd-cache': 'HDD en RAID 5 + caché SSD',
    'config.hdd-ram-cache': 'HDD en RAID 10 + caché de lectura en RAM',
    'config.all-flash-nvme': 'Todo flash NVMe, RAID 5',
  },
  ru: {
    title: 'Том OLTP: кэш, шпиндели или флеш',
    titleFor: '{name}: кэш, шпиндели или флеш',
    'drive.toshiba-mg10aca20te': 'Toshiba MG10ACA20TE 20 ТБ 7200 об/мин SATA',
    'drive.micron-7400-pro-m2-3.84tb': 'Micron 7400 PRO M.2 3,84 ТБ NVMe (1 DWPD)',
    'config.all-hdd': 'Только HDD, RAID 10',
    'config.hdd-ssd-cache': 'HDD в RAID 5 + SSD-кэш',
    'config.hdd-ram-cache': 'HDD в RAID 10 + кэш чтения в ОЗУ',
    'config.all-flash-nvme': 'Только флеш NVMe, RAID 5',
  },
};

/** Is `text` the template's text for `key` in one of the languages (so nobody has edited it)? */
function isTemplateText(key: TemplateKey, text: unknown): boolean {
  return typeof text === 'string' && LANGS.some((l) => template[l][key] === text);
}

function isTemplateKey(key: string): key is TemplateKey {
  return key in template.en;
}

/** One drive or configuration: relabelled when its id is the template's and its label the template's text. */
function relabel(item: unknown, prefix: 'drive.' | 'config.', lang: Lang): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const rec = item as Record<string, unknown>;
  const key = `${prefix}${String(rec['id'])}`;
  if (typeof rec['id'] !== 'string' || !isTemplateKey(key) || !isTemplateText(key, rec['label'])) return item;
  return { ...rec, label: translate(template, lang, key) };
}

/**
 * The scenario (or a person's draft of one, possibly invalid) with the template's words in
 * `lang`: the title, and the label of each drive model and configuration whose id is one of the
 * template's, when that text is still the template's in some language. Texts a person wrote
 * (another label, another title) and ids the template does not have are kept as they are.
 * Returns a copy; the input is not changed.
 * Example: `localizeTemplate({ …, configurations: [{ id: 'hdd-ssd-cache', label: 'HDD RAID 5 + SSD cache', … }] }, 'fr')`
 * → label `HDD en RAID 5 + cache SSD`.
 */
export function localizeTemplate<T>(scenario: T, lang: Lang, name?: string): T {
  if (scenario === null || typeof scenario !== 'object' || Array.isArray(scenario)) return scenario;
  const s: Record<string, unknown> = { ...(scenario as Record<string, unknown>) };
  // a scenario prefilled from an analysis takes the analysis's name: the example's "OLTP volume" claimed a workload nobody measured
  // (a title that is the example's own text has no name in it, though "Volume OLTP : cache, …" reads as one)
  const inTitle = isTemplateText('title', s['title']) ? undefined : nameInTitle(s['title']);
  const named = name !== undefined && name !== '' ? name : inTitle;
  if (isTemplateText('title', s['title']) || inTitle !== undefined) s['title'] = named === undefined ? translate(template, lang, 'title') : translate(template, lang, 'titleFor', { name: named });
  const drives = s['drives'];
  if (Array.isArray(drives)) s['drives'] = drives.map((d) => relabel(d, 'drive.', lang));
  const configs = s['configurations'];
  if (Array.isArray(configs)) s['configurations'] = configs.map((c) => relabel(c, 'config.', lang));
  return s as T;
}

/**
 * The name an analysis goes by in a prefilled scenario's title: the host and the capture file
 * ("WINSRV (x.capture)"), or the file alone when the capture names no host.
 * Example: `analysisName('WINSRV', '/data/x.capture')` → `WINSRV (x.capture)`.
 */
export function analysisName(hostname: string | null, capturePath: string): string {
  const file = capturePath.split(/[\\/]/u).pop() ?? capturePath;
  return hostname === null || hostname === '' ? file : `${hostname} (${file})`;
}

/** The analysis's name in a title that is the template's `titleFor` in one of the languages (so nobody has edited it), else undefined. */
function nameInTitle(title: unknown): string | undefined {
  if (typeof title !== 'string') return undefined;
  for (const l of LANGS) {
    const [head, tail] = template[l].titleFor.split('{name}') as [string, string];
    if (title.length > head.length + tail.length && title.startsWith(head) && title.endsWith(tail)) return title.slice(head.length, title.length - tail.length);
  }
  return undefined;
}
