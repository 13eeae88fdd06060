/**
 * Duplicate member names in raw JSON text. `JSON.parse` silently keeps the last of them; kube-apiserver's strict
 * decoder (sigs.k8s.io/json) reports each as `duplicate field "<name>"`, so the raw text is scanned here.
 */

/** One duplicate: the member name and the depth of the object holding it (a top-level object is depth 1). */
export interface DuplicateField {
  name: string;
  depth: number;
}

/** An object or array being scanned; an object's member names so far (a Set once it has two: most have few). */
interface Frame {
  object: boolean;
  first?: string;
  keys?: Set<string>;
  reported?: Set<string>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Every member name that occurs twice in one object, in document order, each once per object. The text must be
 * valid JSON (the body parser has already accepted it); anything else yields no duplicates. It runs on every
 * request body (issue 16): a name without an escape is read by slicing the text, not by parsing it.
 *
 * @example duplicateFields('{"a":1,"b":{"c":1,"c":2},"a":3}') // [{name:'c',depth:2},{name:'a',depth:1}]
 */
export function duplicateFields(text: string): DuplicateField[] {
  const out: DuplicateField[] = [];
  const stack: Frame[] = [];
  // True where the next string in an object is a member name (after "{" or ",").
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (let c = text.charCodeAt(j); j < text.length && c !== QUOTE; c = text.charCodeAt(j)) {
        if (c === BACKSLASH) {
          escaped = true;
          j += 2;
        } else j++;
      }
      const top = stack[stack.length - 1];
      if (expectName && top?.object) {
        let name: string;
        try {
          name = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        } catch {
          return [];
        }
        if (top.first === undefined) top.first = name;
        else {
          top.keys ??= new Set([top.first]);
          if (top.keys.has(name) && !top.reported?.has(name)) {
            (top.reported ??= new Set()).add(name);
            out.push({ name, depth: stack.length });
          }
          top.keys.add(name);
        }
        expectName = false;
      }
      i = j;
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      stack.push({ object: ch === 0x7b });
      expectName = ch === 0x7b;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      stack.pop();
      expectName = false;
    } else if (ch === 0x2c /* , */) {
      expectName = stack[stack.length - 1]?.object ?? false;
    }
  }
  return out;
}
