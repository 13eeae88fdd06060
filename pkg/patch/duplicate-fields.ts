/**
 * Duplicate member names in raw JSON text. `JSON.parse` silently keeps the last of them; kube-apiserver's strict
 * decoder (sigs.k8s.io/json) reports each as `duplicate field "<name>"`, so the raw text is scanned here.
 */

/** One duplicate: the member name and the depth of the object holding it (a top-level object is depth 1). */
export interface DuplicateField {
  name: string;
  depth: number;
}

interface Frame {
  object: boolean;
  keys: Set<string>;
  reported: Set<string>;
}

/**
 * Every member name that occurs twice in one object, in document order, each once per object. The text must be
 * valid JSON (the body parser has already accepted it); anything else yields no duplicates.
 *
 * @example duplicateFields('{"a":1,"b":{"c":1,"c":2},"a":3}') // [{name:'c',depth:2},{name:'a',depth:1}]
 */
export function duplicateFields(text: string): DuplicateField[] {
  const out: DuplicateField[] = [];
  const stack: Frame[] = [];
  // True where the next string in an object is a member name (after "{" or ",").
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectName && top?.object) {
        let name: string;
        try {
          name = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return [];
        }
        if (top.keys.has(name) && !top.reported.has(name)) {
          top.reported.add(name);
          out.push({ name, depth: stack.length });
        }
        top.keys.add(name);
        expectName = false;
      }
      i = j;
    } else if (ch === '{' || ch === '[') {
      stack.push({ object: ch === '{', keys: new Set(), reported: new Set() });
      expectName = ch === '{';
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      expectName = false;
    } else if (ch === ',') {
      expectName = stack[stack.length - 1]?.object ?? false;
    }
  }
  return out;
}
