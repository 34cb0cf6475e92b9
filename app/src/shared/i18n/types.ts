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

/** Fills `{name}` placeholders. */
export function format(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = params[key];
    return v === undefined ? whole : String(v);
  });
}

/** Looks a key up in a namespace for a language, falling back to English. */
export function translate<K extends string>(catalog: Catalog<K>, lang: Lang, key: K, params?: Record<string, string | number>): string {
  return format(catalog[lang][key] ?? catalog.en[key], params);
}
