import type { Catalog } from './types.ts';

/** Strings of the prediction on the workload profile (namespace `profilePredictionUi`, app/src/renderer/profile/prediction.ts). */
export type ProfilePredictionKey = 'def' | 'compareLine';

export const profilePredictionUi: Catalog<ProfilePredictionKey> = {
  en: {
    def: 'What a cache of the chosen size would have saved, replayed on these block requests (exact simulation; writes go around the cache). The trace was recorded without a cache, so there is no measured figure beside the prediction: a before/after run measures one.',
    compareLine: 'A {size} cache in front of {devices}, replayed on the {reads} reads and {writes} writes of the trace.',
  },
  fr: {
    def: 'Ce qu’un cache de la taille choisie aurait économisé, rejoué sur ces requêtes de blocs (simulation exacte ; les écritures contournent le cache). La trace a été enregistrée sans cache : aucun chiffre mesuré ne figure à côté de la prédiction ; une mesure avant/après en fournit un.',
    compareLine: 'Un cache de {size} devant {devices}, rejoué sur les {reads} lectures et {writes} écritures de la trace.',
  },
  es: {
    def: 'Lo que una caché del tamaño elegido habría ahorrado, reproducida sobre estas peticiones de bloques (simulación exacta; las escrituras rodean la caché). La traza se grabó sin caché, así que no hay cifra medida junto a la predicción: una medición antes/después la aporta.',
    compareLine: 'Una caché de {size} delante de {devices}, reproducida sobre las {reads} lecturas y {writes} escrituras de la traza.',
  },
  ru: {
    def: 'Сколько сэкономил бы кэш выбранного размера, воспроизведённый на этих блочных запросах (точное моделирование; запись идёт мимо кэша). Трасса записана без кэша, поэтому рядом с прогнозом нет измеренного значения: его даёт замер «до/после».',
    compareLine: 'Кэш {size} перед {devices}, воспроизведённый на {reads} чтениях и {writes} записях трассы.',
  },
};
