/** Small DOM helpers shared by every screen (no innerHTML anywhere: text is always a text node). */

/** Creates an element with attributes and children; strings become text nodes, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}
