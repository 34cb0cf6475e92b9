import type { UPPER_LAYER_KEYS } from '@cacheproof/engine/report';
import type { Catalog } from './types.ts';

/** The volumes above the counted disks in a workload profile (engine/src/report/profile-layer.ts), spread into the `report` catalog (report.ts). */
export type UpperLayerKey = (typeof UPPER_LAYER_KEYS)[number];

export const upperLayerReport: Catalog<UpperLayerKey> = {
  en: {
    'pr.upper': 'What the applications saw, at the volumes above the disks: {items}. Their I/O is the disks’ I/O: the figures above count {disks}, once.',
    'pr.upperItem': '{device} (on {on}) {iops} on average at {latency}',
    'pr.t.upper': 'Volumes above the disks: what the applications saw (not added to the totals)',
    'pr.t.upperCaption': 'Each volume the log stacks on the counted disks (an LVM or device-mapper volume, a partition, a Windows volume), over the same window. Their I/O reaches the disks below them, so the profile’s totals count the disks only.',
    'pr.c.on': 'On',
  },
  fr: {
    'pr.upper': 'Ce qu’ont vu les applications, sur les volumes au-dessus des disques : {items}. Leurs E/S sont celles des disques : les chiffres ci-dessus comptent {disks}, une seule fois.',
    'pr.upperItem': '{device} (sur {on}) {iops} en moyenne à {latency}',
    'pr.t.upper': 'Volumes au-dessus des disques : ce qu’ont vu les applications (non ajoutés aux totaux)',
    'pr.t.upperCaption': 'Chaque volume que le journal empile sur les disques comptés (volume LVM ou device-mapper, partition, volume Windows), sur la même fenêtre. Leurs E/S atteignent les disques en dessous : les totaux du profil ne comptent que les disques.',
    'pr.c.on': 'Sur',
  },
  es: {
    'pr.upper': 'Lo que vieron las aplicaciones, en los volúmenes sobre los discos: {items}. Sus E/S son las de los discos: las cifras de arriba cuentan {disks}, una sola vez.',
    'pr.upperItem': '{device} (sobre {on}) {iops} de media a {latency}',
    'pr.t.upper': 'Volúmenes sobre los discos: lo que vieron las aplicaciones (no sumados a los totales)',
    'pr.t.upperCaption': 'Cada volumen que el registro apila sobre los discos contados (volumen LVM o device-mapper, partición, volumen de Windows), en la misma ventana. Sus E/S llegan a los discos de debajo, así que los totales del perfil solo cuentan los discos.',
    'pr.c.on': 'Sobre',
  },
  ru: {
    'pr.upper': 'Что видели приложения, на томах над дисками: {items}. Их ввод-вывод — это ввод-вывод дисков: цифры выше считают {disks} один раз.',
    'pr.upperItem': '{device} (на {on}) {iops} в среднем при {latency}',
    'pr.t.upper': 'Тома над дисками: что видели приложения (не добавлены к итогам)',
    'pr.t.upperCaption': 'Каждый том, который журнал размещает на учтённых дисках (том LVM или device-mapper, раздел, том Windows), за то же окно. Их ввод-вывод доходит до дисков под ними, поэтому итоги профиля считают только диски.',
    'pr.c.on': 'На',
  },
};
