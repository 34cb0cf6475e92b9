/**
 * Which page each named destination of a printed PDF lands on: how the report's contents page
 * gets its page numbers. Chromium (and Electron's printToPDF, the same Skia writer) turns every
 * element a link points at (`<a href="#sec-summary">`) into a named destination in the
 * catalog's `/Dests` dictionary, `/sec-summary [14 0 R /XYZ …]`, and writes a classic
 * cross-reference table with uncompressed object dictionaries. This reads exactly that: the
 * xref table, the catalog, the page tree (in order, nested or not) and the `/Dests` dictionary
 * or the `/Names` → `/Dests` name tree (PDF 1.7, 12.3.2.3). Anything else (an xref stream, an
 * encrypted file) gives `null`, and the contents page is printed without numbers.
 */

/** Page numbers (1-based) of the named destinations, by name; null when the PDF is not of the kind read here. */
export function namedDestinationPages(pdf: Uint8Array): Map<string, number> | null {
  try {
    return read(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  } catch {
    return null;
  }
}

type Ref = number;

/** The cross-reference table (object number → byte offset) and the newest trailer; null when the PDF is not of the kind read here. */
function readXref(buf: Buffer): { offsets: Map<Ref, number>; trailer: string } | null {
  const tail = buf.subarray(Math.max(0, buf.length - 2048)).toString('latin1');
  const sx = /startxref\s+(\d+)\s+%%EOF\s*$/u.exec(tail);
  if (sx === null) return null;
  const offsets = new Map<Ref, number>();
  let trailer = '';
  let at = Number(sx[1]);
  // Follow /Prev: an incrementally updated file has several sections, the newest first.
  for (let hops = 0; hops < 16 && at > 0; hops++) {
    const section = buf.subarray(at, Math.min(buf.length, at + 64 + 20 * 200_000)).toString('latin1');
    if (!section.startsWith('xref')) return null;
    const end = section.indexOf('trailer');
    if (end < 0) return null;
    if (!readXrefEntries(section.slice(4, end), offsets)) return null;
    const t = /<<([\s\S]*?)>>\s*startxref/u.exec(section.slice(end));
    if (t === null) return null;
    if (trailer === '') trailer = t[1] ?? '';
    const prev = /\/Prev\s+(\d+)/u.exec(t[1] ?? '');
    at = prev === null ? 0 : Number(prev[1]);
  }
  return { offsets, trailer };
}

/** One xref section's subsections into `offsets` (a newer section's entry wins); false when a line is not an xref line. */
function readXrefEntries(text: string, offsets: Map<Ref, number>): boolean {
  const lines = text.split(/\r\n|\r|\n/u).map((l) => l.trim()).filter((l) => l !== '');
  let obj = 0;
  for (const l of lines) {
    const head = /^(\d+) (\d+)$/u.exec(l);
    if (head !== null) {
      obj = Number(head[1]);
      continue;
    }
    const e = /^(\d{10}) (\d{5}) ([nf])$/u.exec(l);
    if (e === null) return false;
    if (e[3] === 'n' && !offsets.has(obj)) offsets.set(obj, Number(e[1]));
    obj++;
  }
  return true;
}

/** The objects of a PDF by reference: an object's dictionary text, and references within a dictionary. */
interface Objects {
  dictOf(ref: Ref): string | null;
  refIn(dict: string, key: string): Ref | null;
  /** A dictionary's entry that is a dictionary, inline or by reference. */
  inlineOrRef(dict: string, key: string): string | null;
}

function objectsOf(buf: Buffer, offsets: ReadonlyMap<Ref, number>): Objects {
  const dictOf = (ref: Ref): string | null => {
    const off = offsets.get(ref);
    if (off === undefined) return null;
    const text = buf.subarray(off, Math.min(buf.length, off + 65536)).toString('latin1');
    const m = new RegExp(`^${ref}\\s+\\d+\\s+obj\\s*`, 'u').exec(text);
    if (m === null) return null;
    const body = text.slice(m[0].length);
    const stop = body.search(/\bstream\r?\n|\bendobj\b/u);
    return stop < 0 ? body : body.slice(0, stop);
  };
  const refIn = (dict: string, key: string): Ref | null => {
    const m = new RegExp(`/${key}\\s+(\\d+)\\s+\\d+\\s+R`, 'u').exec(dict);
    return m === null ? null : Number(m[1]);
  };
  const inlineOrRef = (dict: string, key: string): string | null => {
    const ref = refIn(dict, key);
    if (ref !== null) return dictOf(ref);
    const m = new RegExp(`/${key}\\s*<<`, 'u').exec(dict);
    return m === null ? null : balanced(dict, m.index + m[0].length - 2);
  };
  return { dictOf, refIn, inlineOrRef };
}

/** The page tree, depth first, in order: page object number → 1-based page number. */
function pageNumbers(objects: Objects, pagesRoot: Ref): Map<Ref, number> {
  const pageNumber = new Map<Ref, number>();
  const walk = (ref: Ref, depth: number): void => {
    if (depth > 64) throw new Error('page tree too deep');
    const d = objects.dictOf(ref);
    if (d === null) throw new Error(`object ${ref} missing`);
    if (/\/Type\s*\/Pages\b/u.test(d)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/u.exec(d);
      if (kids === null) throw new Error('Pages without Kids');
      for (const k of (kids[1] ?? '').matchAll(/(\d+)\s+\d+\s+R/gu)) walk(Number(k[1]), depth + 1);
    } else {
      pageNumber.set(ref, pageNumber.size + 1);
    }
  };
  walk(pagesRoot, 0);
  return pageNumber;
}

function read(buf: Buffer): Map<string, number> | null {
  const xref = readXref(buf);
  if (xref === null || /\/Encrypt\b/u.test(xref.trailer)) return null;
  const objects = objectsOf(buf, xref.offsets);
  const root = objects.refIn(xref.trailer, 'Root');
  const catalog = root === null ? null : objects.dictOf(root);
  if (catalog === null) return null;
  const pagesRoot = objects.refIn(catalog, 'Pages');
  if (pagesRoot === null) return null;
  const pageNumber = pageNumbers(objects, pagesRoot);
  const out = new Map<string, number>();
  const take = (name: string, dest: string): void => {
    const m = /^\s*(?:<<[\s\S]*?\/D\s*)?\[\s*(\d+)\s+\d+\s+R/u.exec(dest);
    const page = m === null ? undefined : pageNumber.get(Number(m[1]));
    if (page !== undefined) out.set(name, page);
  };
  catalogDests(objects, catalog, take);
  nameTreeDests(objects, catalog, take);
  return out;
}

/** The catalog's /Dests dictionary (PDF 1.1): /name [page /XYZ …] or /name ref. */
function catalogDests(objects: Objects, catalog: string, take: (name: string, dest: string) => void): void {
  const dests = objects.inlineOrRef(catalog, 'Dests');
  if (dests === null) return;
  const inner = dests.trim().replace(/^<<|>>$/gu, '');
  for (const m of inner.matchAll(/\/([^\s/[\]<>()]+)\s*(\[[^\]]*\]|(\d+)\s+\d+\s+R)/gu)) {
    const name = pdfName(m[1] ?? '');
    if (m[3] !== undefined) {
      const d = objects.dictOf(Number(m[3]));
      if (d !== null) take(name, d);
    } else take(name, m[2] ?? '');
  }
}

/** The /Names → /Dests name tree (PDF 1.2): leaves hold /Names [(name) dest …]. */
function nameTreeDests(objects: Objects, catalog: string, take: (name: string, dest: string) => void): void {
  const names = objects.inlineOrRef(catalog, 'Names');
  const treeRoot = names === null ? null : objects.refIn(names, 'Dests');
  const visit = (ref: Ref, depth: number): void => {
    if (depth > 32) return;
    const d = objects.dictOf(ref);
    if (d === null) return;
    const kids = /\/Kids\s*\[([^\]]*)\]/u.exec(d);
    if (kids !== null) for (const k of (kids[1] ?? '').matchAll(/(\d+)\s+\d+\s+R/gu)) visit(Number(k[1]), depth + 1);
    const leaf = /\/Names\s*\[([\s\S]*)\]/u.exec(d);
    if (leaf === null) return;
    for (const m of (leaf[1] ?? '').matchAll(/\(((?:\\.|[^\\)])*)\)\s*(\[[^\]]*\]|(\d+)\s+\d+\s+R)/gu)) {
      const name = (m[1] ?? '').replace(/\\(.)/gu, '$1');
      if (m[3] !== undefined) {
        const dd = objects.dictOf(Number(m[3]));
        if (dd !== null) take(name, dd);
      } else take(name, m[2] ?? '');
    }
  };
  if (treeRoot !== null) visit(treeRoot, 0);
}

/** The `<<…>>` dictionary starting at `from` (which points at its `<<`), nested ones included. */
function balanced(text: string, from: number): string | null {
  let depth = 0;
  for (let i = from; i < text.length - 1; i++) {
    if (text[i] === '<' && text[i + 1] === '<') {
      depth++;
      i++;
    } else if (text[i] === '>' && text[i + 1] === '>') {
      depth--;
      i++;
      if (depth === 0) return text.slice(from, i + 1);
    }
  }
  return null;
}

/** A PDF name's text: `#2D` escapes decoded (PDF 1.7, 7.3.5). */
function pdfName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/gu, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
