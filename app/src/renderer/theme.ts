/**
 * Light and dark themes: colours are CSS variables in styles.css, chosen by
 * `<html data-theme="light|dark">`. The first choice follows the system (prefers-color-scheme);
 * the header's toggle overrides it and is remembered.
 */
import { applyChartTheme } from './charts.ts';
import { el } from './dom.ts';
import { PALETTE } from './screen.ts';

export type Theme = 'light' | 'dark';
const KEY = 'cacheproof.theme';

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The theme in force: the person's saved choice, else the system's. */
export function currentTheme(): Theme {
  const saved = localStorage.getItem(KEY);
  return saved === 'dark' || saved === 'light' ? saved : systemTheme();
}

/** Sets `data-theme` on <html> and Chart.js's defaults; `remember` saves the person's choice. */
export function applyTheme(theme: Theme = currentTheme(), remember = false): void {
  if (remember) localStorage.setItem(KEY, theme);
  document.documentElement.dataset['theme'] = theme;
  applyChartTheme();
}

/** Okabe–Ito palette for the theme: its black becomes white on a dark background. */
export function themedPalette(theme: Theme = currentTheme()): readonly string[] {
  return theme === 'dark' ? PALETTE.map((c) => (c === '#000000' ? '#FFFFFF' : c)) : PALETTE;
}

/**
 * The header's toggle, the WAI-ARIA switch pattern: a button with role="switch" whose
 * aria-checked says whether the dark theme is on, labelled "Dark theme", with a visible track and
 * knob that show the state (on = knob right, in the accent colour). `onChange` redraws the screen
 * (charts take their colours when drawn). Also follows the system while no choice is saved.
 */
export function themeToggle(label: string, testId: string, onChange: () => void): HTMLButtonElement {
  const b = el('button', { type: 'button', role: 'switch', class: 'theme-toggle', 'data-testid': testId, 'aria-checked': String(currentTheme() === 'dark') },
    el('span', { class: 'switch-track', 'aria-hidden': 'true' }, el('span', { class: 'switch-knob' })), el('span', { class: 'switch-label' }, label));
  b.addEventListener('click', () => {
    applyTheme(currentTheme() === 'dark' ? 'light' : 'dark', true);
    onChange();
    // The screen was redrawn: keep the keyboard where it was.
    document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus();
  });
  return b;
}

let watching = false;
/** Re-applies the theme when the system's preference changes and the person has not chosen one. */
export function followSystemTheme(onChange: () => void): void {
  if (watching || !window.matchMedia) return;
  watching = true;
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (localStorage.getItem(KEY) === null) {
      applyTheme();
      onChange();
    }
  });
}
