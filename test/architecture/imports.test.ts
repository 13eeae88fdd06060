/**
 * STYLE.md rule 10, read from the source: `cmd → pkg/server → {legacy-adapters, apis} → pkg/registry → storage`.
 * Every import of every source file (its tests included: a colocated unit test lives in its layer) is resolved to
 * the area it points into, and an import against the direction fails here, naming the file and the line, rather
 * than surfacing later as a cycle or a layer that cannot be moved.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../..');
const sourceFolders = ['cmd', 'pkg', 'apis', 'storage', 'legacy-adapters', 'hack', 'test'];

/** One import: where it is written, what it names, and whether it brings types only (erased when compiled). */
interface ImportEdge {
  from: string;
  line: number;
  specifier: string;
  /** The imported file relative to the repository (`pkg/meta/index`), or `npm:<package>` for a package. */
  target: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function packageOf(specifier: string): string {
  return specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

function importsOf(file: string): ImportEdge[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const from = path.relative(root, file);
  const edges: ImportEdge[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), specifier)) : `npm:${packageOf(specifier)}`;
    edges.push({ from, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, specifier, target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      // jest.mock('x') and require.resolve('x') name modules too, but only to locate them; they do not load a layer.
      if (isRequire || isDynamicImport) add(node, (node.arguments[0] as ts.StringLiteralLike).text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** The area a repository path lies in: `pkg/<name>`, or the top folder (`apis`, `storage`, `legacy-adapters`...). */
function areaOf(relPath: string): string {
  const parts = relPath.split(path.sep);
  return parts[0] === 'pkg' && parts.length > 1 ? `pkg/${parts[1]}` : parts[0]!;
}

/** Test code: the test folder and the unit tests colocated with their sources. */
function isTestCode(relPath: string): boolean {
  return relPath.startsWith(`test${path.sep}`) || /\.test\.ts$/.test(relPath);
}

/** A rule says, for one import, why it is forbidden, or nothing when it is allowed. */
type Rule = (edge: ImportEdge, fromArea: string, toArea: string | undefined) => string | undefined;

const rules: Rule[] = [
  (e, from, to) =>
    (to === 'cmd' || to === 'hack' || to === 'test') && from !== to && !(to === 'test' && isTestCode(e.from))
      ? `nothing imports ${to}/ (only test code imports test/)`
      : undefined,
  (_e, from, to) =>
    to === 'pkg/server' && from !== 'pkg/server' && from !== 'cmd' && from !== 'test' ? 'only cmd imports pkg/server (it composes the layers below it)' : undefined,
  (e, from, to) =>
    from === 'apis' && to !== 'apis' && to !== 'pkg/meta' && to !== 'pkg/errors' && e.target !== 'npm:zod'
      ? 'apis/ imports only zod, pkg/meta, pkg/errors and apis/'
      : undefined,
  (e, from, to) =>
    from === 'storage' && to !== undefined && to !== 'storage' && !(to === 'pkg/meta' && e.typeOnly)
      ? 'storage/ imports nothing of the repository but the types of pkg/meta'
      : undefined,
  (e, from, to) =>
    from === 'legacy-adapters' && (to === 'storage' || e.target === 'npm:kysely' || e.target === 'npm:pg')
      ? 'legacy-adapters/ reach the data through the registry, never storage/ or SQL'
      : undefined,
  (_e, from, to) =>
    from === 'pkg/registry' && (to === 'apis' || to === 'legacy-adapters' || to === 'pkg/auth' || to === 'pkg/stars' || to === 'pkg/preferences')
      ? 'pkg/registry is below the kinds and services that use it'
      : undefined,
  (e) =>
    e.from.startsWith(path.join('pkg', 'auth', 'identity') + path.sep) &&
    [path.join('pkg', 'auth', 'authentication'), path.join('pkg', 'auth', 'authorization')].some((d) => e.target.startsWith(d + path.sep))
      ? 'pkg/auth/identity is below authentication and authorization (who calls, what it may do), which read it'
      : undefined,
];

/**
 * Today's violations, each to be removed by the change that fixes it (the test fails when one is fixed and still
 * listed, so this list only shrinks). Keys: `<file> -> <import specifier>`.
 */
const allowed = new Set<string>([]);

function violations(): { found: string[]; unusedAllowances: string[] } {
  const found: string[] = [];
  const used = new Set<string>();
  for (const dir of sourceFolders) {
    for (const file of sourceFiles(path.join(root, dir))) {
      for (const edge of importsOf(file)) {
        const fromArea = areaOf(edge.from);
        const toArea = edge.target.startsWith('npm:') ? undefined : areaOf(edge.target);
        for (const rule of rules) {
          const why = rule(edge, fromArea, toArea);
          if (!why) continue;
          const key = `${edge.from} -> ${edge.specifier}`;
          if (allowed.has(key)) used.add(key);
          else found.push(`${edge.from}:${edge.line} imports '${edge.specifier}': ${why}`);
        }
      }
    }
  }
  return { found, unusedAllowances: [...allowed].filter((k) => !used.has(k)) };
}

describe('import directions (STYLE.md rule 10)', () => {
  it('reads the imports it judges: a file of each layer has some', () => {
    const edges = sourceFolders.flatMap((dir) => sourceFiles(path.join(root, dir)).flatMap(importsOf));
    for (const area of ['cmd', 'pkg/server', 'legacy-adapters', 'apis', 'pkg/registry', 'storage']) {
      expect(edges.some((e) => areaOf(e.from) === area)).toBe(true);
    }
    // The parser sees `import type` and require() alike.
    expect(edges.some((e) => e.from.startsWith('storage') && e.typeOnly)).toBe(true);
    expect(edges.some((e) => e.from.endsWith('.js') && !e.target.startsWith('npm:'))).toBe(true);
  });

  it('the rules refuse an import against the direction', () => {
    const edge = (from: string, specifier: string, typeOnly = false): ImportEdge => ({
      from,
      line: 1,
      specifier,
      target: specifier.startsWith('.') ? path.relative(root, path.resolve(root, path.dirname(from), specifier)) : `npm:${packageOf(specifier)}`,
      typeOnly,
    });
    const judge = (e: ImportEdge) => rules.map((r) => r(e, areaOf(e.from), e.target.startsWith('npm:') ? undefined : areaOf(e.target))).filter(Boolean);
    expect(judge(edge('pkg/auth/x.ts', '../server/namespaces'))).toHaveLength(1);
    expect(judge(edge('legacy-adapters/a/x.ts', '../../pkg/server/app'))).toHaveLength(1);
    expect(judge(edge('apis/g/v/x.ts', '../../../pkg/registry'))).toHaveLength(1);
    expect(judge(edge('storage/x.ts', '../pkg/meta'))).toHaveLength(1);
    expect(judge(edge('storage/x.ts', '../pkg/meta', true))).toHaveLength(0);
    expect(judge(edge('pkg/auth/identity/x.ts', '../authentication/password'))).toHaveLength(1);
    expect(judge(edge('pkg/auth/authentication/x.ts', '../identity/password'))).toHaveLength(0);
    expect(judge(edge('legacy-adapters/a/x.ts', 'kysely'))).toHaveLength(1);
    expect(judge(edge('pkg/registry/x.ts', '../../apis'))).toHaveLength(1);
    expect(judge(edge('pkg/server/x.ts', '../../test/support/app'))).toHaveLength(1);
    expect(judge(edge('pkg/auth/x.test.ts', '../../test/support/app'))).toHaveLength(0);
    expect(judge(edge('cmd/x/main.ts', '../../pkg/server/server'))).toHaveLength(0);
  });

  it('no source file imports against the direction', () => {
    const { found, unusedAllowances } = violations();
    expect(found).toEqual([]);
    expect(unusedAllowances).toEqual([]);
  });
});
