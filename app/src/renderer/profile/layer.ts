/**
 * The volumes above the counted disks on the profile screen (engine report/profile-layer.ts): the
 * sentence of what the applications saw and the table of every volume, drawn as the engine gives
 * them. Nothing is computed here.
 */
import { upperLayerMsg, upperLayerTable } from '@cacheproof/engine/report';
import type { ProfileView } from '../../shared/contract.ts';
import { reportText } from '../../shared/i18n/report.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { engineBlock } from './slices.ts';

/** The section's elements, none when the capture stacks no volume on the disks. */
export function upperLayerSection(p: ProfileView['profile'], lang: Lang): HTMLElement[] {
  const msg = upperLayerMsg(p);
  const table = upperLayerTable(p);
  if (msg === null || table === null) return [];
  const drawn = engineBlock({ type: 'table', table }, lang, () => TID.profileUpperLayer);
  return [el('section', { class: 'profile-upper' }, el('p', {}, reportText(msg, lang)), ...(drawn === null ? [] : [drawn]))];
}
