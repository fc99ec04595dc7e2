import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Every regular expression a production source file makes: each regex literal, and each
 * `new RegExp(...)` / `RegExp(...)`, with its source and flags resolved where the code spells them
 * out (a string, a template, `+`, `String.raw`, `[...].join(...)`, a const, an object literal's
 * property, a regex's `.source` or `.flags`, followed across imports). What the code does not spell
 * out (a parameter, a computed value) is reported unresolved, with the expression as written.
 */
export interface PatternSite {
  /** the file, relative to the root */
  file: string;
  line: number;
  /** the expression as written */
  code: string;
  /** null when the source is not spelled out in the code */
  source: string | null;
  flags: string;
}

/** production sources: every non-spec `.ts` under `apps/` and `libs/`, without `apps/lab` (our
 * deliberately vulnerable targets) and any `testing` folder (test helpers) */
export function productionSources(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = join(dir, e.name);
      if (e.isDirectory()) return ['node_modules', 'testing'].includes(e.name) ? [] : walk(full);
      return /\.tsx?$/.test(e.name) && !/\.d\.ts$|\.spec\.tsx?$/.test(e.name) ? [full] : [];
    });
  return ['apps', 'libs']
    .flatMap((d) => walk(join(root, d)))
    .filter((f) => !relative(root, f).startsWith('apps/lab/'))
    .sort();
}

export function patternSites(root: string, files: readonly string[]): PatternSite[] {
  const options: ts.CompilerOptions = { ...tsconfigOptions(root), noEmit: true, noLib: true, noResolve: true, types: [] };
  const program = ts.createProgram({ rootNames: files, options });
  const checker = program.getTypeChecker();
  const resolver = new Resolver(checker);
  const sites: PatternSite[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`not compiled: ${file}`);
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node) || isRegExpCall(node)) {
        const found = resolver.regex(node as ts.Expression);
        sites.push({
          file: relative(root, file),
          line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
          code: node.getText(sf),
          source: found?.source ?? null,
          flags: found?.flags ?? '',
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return sites;
}

function tsconfigOptions(root: string): ts.CompilerOptions {
  const path = join(root, 'tsconfig.json');
  const config = ts.parseConfigFileTextToJson(path, readFileSync(path, 'utf8')).config;
  return ts.convertCompilerOptionsFromJson(config.compilerOptions, root).options;
}

function isRegExpCall(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp';
}

interface Regex {
  source: string;
  flags: string;
}

class Resolver {
  /** declarations being resolved, so a cycle ends unresolved instead of looping */
  private readonly open = new Set<ts.Node>();
  constructor(private readonly checker: ts.TypeChecker) {}

  regex(e: ts.Expression): Regex | null {
    e = skipOuter(e);
    if (ts.isRegularExpressionLiteral(e)) {
      const cut = e.text.lastIndexOf('/');
      return { source: e.text.slice(1, cut), flags: e.text.slice(cut + 1) };
    }
    if (isRegExpCall(e)) {
      const [pattern, flags] = e.arguments ?? [];
      if (!pattern) return { source: '(?:)', flags: '' };
      const asRegex = this.regex(pattern);
      const source = asRegex?.source ?? this.text(pattern);
      const flagText = flags ? this.text(flags) : (asRegex?.flags ?? '');
      return source === null || flagText === null ? null : { source, flags: flagText };
    }
    const init = this.initializer(e);
    return init ? this.within(init, () => this.regex(init)) : null;
  }

  text(e: ts.Expression): string | null {
    e = skipOuter(e);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isNumericLiteral(e)) return e.text;
    if (ts.isTemplateExpression(e)) return this.template(e, false);
    if (ts.isTaggedTemplateExpression(e) && e.tag.getText() === 'String.raw') {
      const t = e.template;
      return ts.isNoSubstitutionTemplateLiteral(t) ? (t.rawText ?? null) : this.template(t, true);
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const [a, b] = [this.text(e.left), this.text(e.right)];
      return a === null || b === null ? null : a + b;
    }
    if (ts.isPropertyAccessExpression(e) && (e.name.text === 'source' || e.name.text === 'flags')) {
      const r = this.regex(e.expression);
      if (r) return e.name.text === 'source' ? r.source : r.flags;
    }
    if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'join') {
      const items = this.array(e.expression.expression);
      const sep = e.arguments.length ? this.text(e.arguments[0]) : ',';
      return items === null || sep === null ? null : items.join(sep);
    }
    const init = this.initializer(e);
    return init ? this.within(init, () => this.text(init)) : null;
  }

  private template(t: ts.TemplateExpression, raw: boolean): string | null {
    let out = raw ? t.head.rawText : t.head.text;
    for (const span of t.templateSpans) {
      const part = this.text(span.expression);
      if (part === null || out === undefined) return null;
      out += part + (raw ? span.literal.rawText : span.literal.text);
    }
    return out ?? null;
  }

  private array(e: ts.Expression): string[] | null {
    e = skipOuter(e);
    if (ts.isArrayLiteralExpression(e)) {
      const items = e.elements.map((el) => (ts.isSpreadElement(el) ? null : this.text(el)));
      return items.every((i): i is string => i !== null) ? items : null;
    }
    const init = this.initializer(e);
    return init ? this.within(init, () => this.array(init)) : null;
  }

  /** what a const name, or a property of a const object literal, stands for */
  private initializer(e: ts.Expression): ts.Expression | null {
    if (ts.isIdentifier(e)) {
      const decl = this.declarationOf(e);
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer && isConst(decl)) return decl.initializer;
      return null;
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = ts.isPropertyAccessExpression(e) ? e.name.text : ts.isStringLiteral(e.argumentExpression) ? e.argumentExpression.text : null;
      const decl = this.declarationOf(ts.isPropertyAccessExpression(e) ? e.name : e.argumentExpression);
      if (decl && ts.isPropertyAssignment(decl)) return decl.initializer;
      if (decl && ts.isShorthandPropertyAssignment(decl)) return decl.name;
      if (decl && ts.isPropertyDeclaration(decl) && decl.initializer && hasReadonly(decl)) return decl.initializer;
      if (name === null) return null;
      const owner = this.initializer(skipOuter(e.expression));
      if (owner && ts.isObjectLiteralExpression(skipOuter(owner))) {
        const prop = (skipOuter(owner) as ts.ObjectLiteralExpression).properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
        if (prop && ts.isPropertyAssignment(prop)) return prop.initializer;
      }
    }
    return null;
  }

  private declarationOf(n: ts.Node): ts.Declaration | undefined {
    let symbol = this.checker.getSymbolAtLocation(n);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  }

  private within<T>(node: ts.Node, f: () => T | null): T | null {
    if (this.open.has(node)) return null;
    this.open.add(node);
    try {
      return f();
    } finally {
      this.open.delete(node);
    }
  }
}

function skipOuter(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

function isConst(decl: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(decl.parent) && (decl.parent.flags & ts.NodeFlags.Const) !== 0;
}

function hasReadonly(decl: ts.PropertyDeclaration): boolean {
  return !!decl.modifiers?.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
}
