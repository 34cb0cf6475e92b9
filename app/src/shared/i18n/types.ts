/** Languages CacheProof speaks (the languages our users' vendor papers come in). */
export const LANGS = ['en', 'fr', 'es', 'ru'] as const;
export type Lang = (typeof LANGS)[number];

export function isLang(value: string): value is Lang {
  return (LANGS as readonly string[]).includes(value);
}

/** BCP 47 locale used for number and date formatting per language. */
export const LOCALE: Record<Lang, string> = { en: 'en-GB', fr: 'fr-FR', es: 'es-ES', ru: 'ru-RU' };

/**
 * A catalog namespace: one object per language with the same keys. Each area of the app
 * owns one namespace file in this folder (`common.ts`, `analysis.ts`, `tco.ts`, …) so that
 * no string lives in code outside the catalogs.
 */
export type Catalog<K extends string> = Record<Lang, Record<K, string>>;

/** The number a parameter holds, whether given as a number or already formatted (`1 234,5`, `4`). */
function numberOf(v: string | number): number | null {
  if (typeof v === 'number') return v;
  const t = v.replace(/[\s\u00a0\u202f,]/gu, (c) => (c === ',' ? '.' : '')).replace(/[^\d.-]/gu, '');
  const n = Number.parseFloat(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * Fills `{name}` placeholders, and plural words `{name|one:год|few:года|many:лет|other:года}`:
 * the form for the number `name` holds, by the language's CLDR plural rules (Intl.PluralRules),
 * so a Russian sentence reads "через 4 года", "5 лет", "21 год" (a missing form falls back to
 * `other`). Without `lang` (or when the number cannot be read) the `other` form is used.
 */
export function format(template: string, params: Record<string, string | number> = {}, lang?: Lang): string {
  const withPlurals = template.replace(/\{(\w+)\|([^{}]+)\}/gu, (whole, key: string, forms: string) => {
    const byCategory = new Map(forms.split('|').map((f) => f.split(':') as [string, string]));
    const v = params[key];
    const n = v === undefined ? null : numberOf(v);
    const category = n === null || lang === undefined ? 'other' : new Intl.PluralRules(LOCALE[lang]).select(n);
    return byCategory.get(category) ?? byCategory.get('other') ?? whole;
  });
  return withPlurals.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = params[key];
    return v === undefined ? whole : String(v);
  });
}

/** Looks a key up in a namespace for a language, falling back to English. */
export function translate<K extends string>(catalog: Catalog<K>, lang: Lang, key: K, params?: Record<string, string | number>): string {
  return format(catalog[lang][key] ?? catalog.en[key], params, lang);
}
