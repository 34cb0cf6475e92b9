import type { PlanVerdict, VerdictKey, VerdictMessage, VerdictValue } from '@cacheproof/engine/plan';
import { translate, type Catalog, type Lang } from './types.ts';
import { fmtNumber, fmtPercent } from './numbers.ts';
import { tco, type TcoKey } from './tco.ts';

/**
 * Words of the TCO bottom line (namespace `verdict`): the engine's verdict (engine/src/plan/
 * verdict.ts) returns keys of this catalog and typed values; {@link verdictText} is the one
 * function that turns it into the sentence the Planner, `cacheproof tco` and the report print.
 */
export const verdict: Catalog<VerdictKey> = {
  en: {
    saves: 'The cache configuration “{config}” saves {usd} USD ({pct}) over {years} {years|one:year|other:years} against “{reference}”; it pays back in {months} {months|one:month|other:months}.',
    savesDayOne: 'The cache configuration “{config}” saves {usd} USD ({pct}) over {years} {years|one:year|other:years} against “{reference}”; it costs less from day one.',
    noPayback: 'The cache configuration “{config}” does not pay back within {years} {years|one:year|other:years} against “{reference}”: it costs {usd} USD ({pct}) more, and the line item that decides it is “{line}” ({lineUsd} USD more).',
    noPaybackNoLine: 'The cache configuration “{config}” does not pay back within {years} {years|one:year|other:years} against “{reference}”: it costs {usd} USD ({pct}) more.',
    noCache: 'The scenario has no cache configuration to compare with “{reference}”.',
    'clause.saves': '“{config}” saves {usd} USD ({pct}) and pays back in {months} {months|one:month|other:months}',
    'clause.savesDayOne': '“{config}” saves {usd} USD ({pct}) and costs less from day one',
    'clause.noPayback': '“{config}” does not pay back within {years} {years|one:year|other:years} ({usd} USD more)',
    'clause.noCache': 'no cache configuration saves',
    'clause.noFit': '“{config}” needs more drives than its system holds',
    sized: 'Sized on {basis} ({iops} IOPS){why}.',
    sizedWithAlt: 'Sized on {basis} ({iops} IOPS){why}; {alts}.',
    alt: 'sized on {basis} ({iops} IOPS), {clause}',
    'why.p95': ', the basis Dell Live Optics sizes on: every interval but the busiest 5% is served without queueing',
    'why.peak': ', so that even the busiest interval is served without queueing',
    'why.mean': ', which leaves the busier intervals to queue',
    'why.typed': '',
    'basis.p95': 'the 95th percentile of the measured IOPS', 'basis.peak': 'the peak of the measured IOPS', 'basis.mean': 'the mean of the measured IOPS', 'basis.typed': 'the IOPS typed in the scenario',
  },
  fr: {
    saves: 'La configuration avec cache « {config} » économise {usd} USD ({pct}) sur {years} {years|one:an|other:ans} par rapport à « {reference} » ; elle est rentabilisée en {months} mois.',
    savesDayOne: 'La configuration avec cache « {config} » économise {usd} USD ({pct}) sur {years} {years|one:an|other:ans} par rapport à « {reference} » ; elle coûte moins dès le premier jour.',
    noPayback: 'La configuration avec cache « {config} » n’est pas rentabilisée en {years} {years|one:an|other:ans} par rapport à « {reference} » : elle coûte {usd} USD ({pct}) de plus, et le poste qui en décide est « {line} » ({lineUsd} USD de plus).',
    noPaybackNoLine: 'La configuration avec cache « {config} » n’est pas rentabilisée en {years} {years|one:an|other:ans} par rapport à « {reference} » : elle coûte {usd} USD ({pct}) de plus.',
    noCache: 'Le scénario n’a aucune configuration avec cache à comparer à « {reference} ».',
    'clause.saves': '« {config} » économise {usd} USD ({pct}) et est rentabilisée en {months} mois',
    'clause.savesDayOne': '« {config} » économise {usd} USD ({pct}) et coûte moins dès le premier jour',
    'clause.noPayback': '« {config} » n’est pas rentabilisée en {years} {years|one:an|other:ans} ({usd} USD de plus)',
    'clause.noCache': 'aucune configuration avec cache n’économise',
    'clause.noFit': '« {config} » demande plus de disques que son système n’en accepte',
    sized: 'Dimensionné sur {basis} ({iops} IOPS){why}.',
    sizedWithAlt: 'Dimensionné sur {basis} ({iops} IOPS){why} ; {alts}.',
    alt: 'dimensionné sur {basis} ({iops} IOPS), {clause}',
    'why.p95': ', la base de dimensionnement de Dell Live Optics : tous les intervalles sauf les 5 % les plus chargés sont servis sans file d’attente',
    'why.peak': ', pour que même l’intervalle le plus chargé soit servi sans file d’attente',
    'why.mean': ', ce qui laisse les intervalles plus chargés en file d’attente',
    'why.typed': '',
    'basis.p95': 'le 95e centile des IOPS mesurées', 'basis.peak': 'le pic des IOPS mesurées', 'basis.mean': 'la moyenne des IOPS mesurées', 'basis.typed': 'les IOPS saisies dans le scénario',
  },
  es: {
    saves: 'La configuración con caché «{config}» ahorra {usd} USD ({pct}) en {years} {years|one:año|other:años} frente a «{reference}»; se amortiza en {months} {months|one:mes|other:meses}.',
    savesDayOne: 'La configuración con caché «{config}» ahorra {usd} USD ({pct}) en {years} {years|one:año|other:años} frente a «{reference}»; cuesta menos desde el primer día.',
    noPayback: 'La configuración con caché «{config}» no se amortiza en {years} {years|one:año|other:años} frente a «{reference}»: cuesta {usd} USD ({pct}) más, y la partida que lo decide es «{line}» ({lineUsd} USD más).',
    noPaybackNoLine: 'La configuración con caché «{config}» no se amortiza en {years} {years|one:año|other:años} frente a «{reference}»: cuesta {usd} USD ({pct}) más.',
    noCache: 'El escenario no tiene ninguna configuración con caché que comparar con «{reference}».',
    'clause.saves': '«{config}» ahorra {usd} USD ({pct}) y se amortiza en {months} {months|one:mes|other:meses}',
    'clause.savesDayOne': '«{config}» ahorra {usd} USD ({pct}) y cuesta menos desde el primer día',
    'clause.noPayback': '«{config}» no se amortiza en {years} {years|one:año|other:años} ({usd} USD más)',
    'clause.noCache': 'ninguna configuración con caché ahorra',
    'clause.noFit': '«{config}» necesita más discos de los que admite su sistema',
    sized: 'Dimensionado sobre {basis} ({iops} IOPS){why}.',
    sizedWithAlt: 'Dimensionado sobre {basis} ({iops} IOPS){why}; {alts}.',
    alt: 'dimensionado sobre {basis} ({iops} IOPS), {clause}',
    'why.p95': ', la base sobre la que dimensiona Dell Live Optics: todos los intervalos salvo el 5 % más cargado se atienden sin cola',
    'why.peak': ', para que incluso el intervalo más cargado se atienda sin cola',
    'why.mean': ', lo que deja en cola los intervalos más cargados',
    'why.typed': '',
    'basis.p95': 'el percentil 95 de las IOPS medidas', 'basis.peak': 'el pico de las IOPS medidas', 'basis.mean': 'la media de las IOPS medidas', 'basis.typed': 'las IOPS introducidas en el escenario',
  },
  ru: {
    saves: 'Конфигурация с кэшем «{config}» экономит {usd} USD ({pct}) за {years} {years|one:год|few:года|many:лет|other:года} по сравнению с «{reference}»; она окупается за {months} {months|one:месяц|few:месяца|many:месяцев|other:месяца}.',
    savesDayOne: 'Конфигурация с кэшем «{config}» экономит {usd} USD ({pct}) за {years} {years|one:год|few:года|many:лет|other:года} по сравнению с «{reference}»; она дешевле с первого дня.',
    noPayback: 'Конфигурация с кэшем «{config}» не окупается за {years} {years|one:год|few:года|many:лет|other:года} по сравнению с «{reference}»: она дороже на {usd} USD ({pct}), и решает статья «{line}» (на {lineUsd} USD дороже).',
    noPaybackNoLine: 'Конфигурация с кэшем «{config}» не окупается за {years} {years|one:год|few:года|many:лет|other:года} по сравнению с «{reference}»: она дороже на {usd} USD ({pct}).',
    noCache: 'В сценарии нет конфигурации с кэшем для сравнения с «{reference}».',
    'clause.saves': '«{config}» экономит {usd} USD ({pct}) и окупается за {months} {months|one:месяц|few:месяца|many:месяцев|other:месяца}',
    'clause.savesDayOne': '«{config}» экономит {usd} USD ({pct}) и дешевле с первого дня',
    'clause.noPayback': '«{config}» не окупается за {years} {years|one:год|few:года|many:лет|other:года} (дороже на {usd} USD)',
    'clause.noCache': 'ни одна конфигурация с кэшем не экономит',
    'clause.noFit': '«{config}» требует больше дисков, чем вмещает её система',
    sized: 'Расчёт по {basis} ({iops} IOPS){why}.',
    sizedWithAlt: 'Расчёт по {basis} ({iops} IOPS){why}; {alts}.',
    alt: 'при расчёте по {basis} ({iops} IOPS) {clause}',
    'why.p95': ' — так рассчитывает Dell Live Optics: все интервалы, кроме 5 % самых нагруженных, обслуживаются без очереди',
    'why.peak': ' — чтобы даже самый нагруженный интервал обслуживался без очереди',
    'why.mean': ' — более нагруженные интервалы при этом ждут в очереди',
    'why.typed': '',
    'basis.p95': '95-му перцентилю измеренных IOPS', 'basis.peak': 'пику измеренных IOPS', 'basis.mean': 'среднему измеренных IOPS', 'basis.typed': 'IOPS, заданным в сценарии',
  },
};

/** One value of a verdict message as text in a language. */
function valueText(v: VerdictValue, lang: Lang): string {
  switch (v.k) {
    case 'usd': return fmtNumber(lang, v.v, 0);
    case 'pct': return fmtPercent(lang, v.v, 1);
    case 'count': return fmtNumber(lang, v.v, 0);
    case 'text': return v.s;
    case 'line': return tco[lang][`line.${v.id}` as TcoKey];
    case 'basis': return verdict[lang][`basis.${v.basis}`];
    case 'msg': return verdictMessageText(v.m, lang);
    case 'list': return v.items.map((m) => verdictMessageText(m, lang)).join('; ');
  }
}

/** One message of the verdict in a language (its values formatted by {@link valueText}; plural words read the formatted count). */
export function verdictMessageText(m: VerdictMessage, lang: Lang): string {
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(m.params)) params[k] = valueText(v, lang);
  return translate(verdict, lang, m.key, params);
}

/**
 * The bottom line of a plan as printed everywhere (Planner, `cacheproof tco`, report): the
 * verdict sentence and the basis sentence, joined by a space.
 * Example (en): "The cache configuration “HDD RAID 5 + SSD cache” does not pay back within 4 years
 * against “All HDD, RAID 10”: … Sized on the 95th percentile of the measured IOPS (…); sized on the peak (…), …."
 */
export function verdictText(v: PlanVerdict, lang: Lang): string {
  return v.messages.map((m) => verdictMessageText(m, lang)).join(' ');
}
