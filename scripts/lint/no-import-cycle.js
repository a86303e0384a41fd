// @ts-check
// ESLint rule `coinsync/no-import-cycle` (decision 060, Session 17): no module imports a module that has a
// path of imports back to it, in the server and in the web app (ARCHITECTURE.md, "Boundaries").
//
// What import-x/no-cycle held (decision 021), read from the TypeScript program the type-aware rules already
// have instead of parsing every dependency again: that rule was 36 % of the server lint's rule time. The
// program's import graph is built once per program (every file of the project, its module specifiers
// resolved by TypeScript as the compiler resolves them), split into strongly connected components, and an
// import is reported when the module it imports lies in the importer's component: exactly when a path leads
// back. An edge is what loads a module at run time: `import … from`, `import '…'`, `export … from`,
// `export * from`, `import x = require('…')` and `import('…')` with a literal; not `import type`, an import
// or re-export whose specifiers are all `type`, nor `import('…')` in a type. Packages and declaration files
// are not part of the graph (import-x/no-cycle's `ignoreExternal`).
import ts from 'typescript';

/** @type {WeakMap<ts.Program, Map<string, { component: number, edges: Map<string, string> }>>} */
const graphs = new WeakMap();

/** Whether an import or export declaration (TypeScript's AST) loads its module at run time. */
function loadsModule(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return true;
    if (clause.isTypeOnly) return false;
    const named = clause.namedBindings;
    const allTypes =
      !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0
        ? named.elements.every((e) => e.isTypeOnly)
        : false;
    return !allTypes;
  }
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !(
      clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
    );
  }
  if (ts.isImportEqualsDeclaration(node)) return !node.isTypeOnly;
  return true;
}

/** The module specifiers of a file that load a module at run time (string literal nodes). */
function runtimeSpecifiers(sourceFile) {
  /** @type {ts.StringLiteral[]} */
  const found = [];
  for (const statement of sourceFile.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      loadsModule(statement)
    )
      found.push(statement.moduleSpecifier);
    else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression) &&
      loadsModule(statement)
    )
      found.push(statement.moduleReference.expression);
  }
  // Dynamic imports can sit anywhere in a file; most files have none.
  if (sourceFile.text.includes('import(')) {
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      )
        found.push(node.arguments[0]);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(sourceFile, visit);
  }
  return found;
}

/** The file a module specifier resolves to, if it is one of the project's own source files. */
function targetOf(checker, program, specifier) {
  const symbol = checker.getSymbolAtLocation(specifier);
  const file = symbol?.declarations?.find(ts.isSourceFile);
  if (!file || file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) return undefined;
  if (file.fileName.includes('/node_modules/')) return undefined;
  return file.fileName;
}

/** Each project file's component (Tarjan's strongly connected components) and its edges. */
function buildGraph(program) {
  const checker = program.getTypeChecker();
  /** @type {Map<string, Map<string, string>>} target → the first specifier text that imports it */
  const edges = new Map();
  for (const sourceFile of program.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || program.isSourceFileFromExternalLibrary(sourceFile)) continue;
    if (sourceFile.fileName.includes('/node_modules/')) continue;
    const out = new Map();
    for (const specifier of runtimeSpecifiers(sourceFile)) {
      const target = targetOf(checker, program, specifier);
      if (target && !out.has(target)) out.set(target, specifier.text);
    }
    edges.set(sourceFile.fileName, out);
  }
  return { edges, component: components(edges) };
}

/** Tarjan's algorithm, iterative: file → component number. */
function components(edges) {
  /** @type {Map<string, number>} */
  const index = new Map();
  const low = new Map();
  const component = new Map();
  const stack = [];
  const onStack = new Set();
  let next = 0;
  let count = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work = [{ file: root, targets: [...(edges.get(root)?.keys() ?? [])], i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      if (frame.i < frame.targets.length) {
        const target = frame.targets[frame.i++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, targets: [...(edges.get(target)?.keys() ?? [])], i: 0 });
        } else if (onStack.has(target)) low.set(frame.file, Math.min(low.get(frame.file), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent), low.get(frame.file)));
      }
      if (low.get(frame.file) === index.get(frame.file)) {
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.set(member, count);
        } while (member !== frame.file);
        count += 1;
      }
    }
  }
  return component;
}

/** One path of imports from `from` back to `to` inside their component, as the specifiers written. */
function routeBack(graph, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const file = queue.shift();
    if (file === to) break;
    for (const [target, text] of graph.edges.get(file) ?? []) {
      if (previous.has(target) || graph.component.get(target) !== graph.component.get(from)) continue;
      previous.set(target, { file, text });
      queue.push(target);
    }
  }
  const route = [];
  for (let step = previous.get(to); step; step = previous.get(step.file)) route.unshift(step.text);
  return route.join(' → ');
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a module from importing a module with a path of imports back to itself.' },
    schema: [],
    messages: { cycle: 'Dependency cycle: "{{source}}" leads back here ({{route}}).' },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const program = services?.program;
    if (!program || !services.esTreeNodeToTSNodeMap)
      throw new Error('coinsync/no-import-cycle needs type information (typescript-eslint with a program).');
    let graph = graphs.get(program);
    if (!graph) {
      graph = buildGraph(program);
      graphs.set(program, graph);
    }
    const checker = program.getTypeChecker();
    const self = program.getSourceFile(context.physicalFilename)?.fileName;
    const check = (source, declaration) => {
      if (!self || !source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const tsDeclaration = services.esTreeNodeToTSNodeMap.get(declaration);
      if (tsDeclaration && !ts.isCallExpression(tsDeclaration) && !loadsModule(tsDeclaration)) return;
      const target = targetOf(checker, program, services.esTreeNodeToTSNodeMap.get(source));
      if (!target || target === self) return;
      if (graph.component.get(target) !== graph.component.get(self)) return;
      const route = [source.value, routeBack(graph, target, self)].filter(Boolean).join(' → ');
      context.report({ node: declaration, messageId: 'cycle', data: { source: source.value, route } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node),
      ExportAllDeclaration: (node) => check(node.source, node),
      ImportExpression: (node) => check(node.source, node),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' &&
        check(node.moduleReference.expression, node),
    };
  },
};

export default rule;
