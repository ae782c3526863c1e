/** @module Reads the runtime sources of src/ with the TypeScript parser and reports where error codes are raised and where they are only compared. */

import { readdirSync, readFileSync } from 'node:fs';

import ts from 'typescript';

import { RpcCode } from '../../protocol/errors.js';

/** What the sources do with error codes: wire codes (numbers) and gateway codes (GW_ERR_* names). */
export interface CodeUses {
  /** Wire codes put into an error that is sent: `new ProtocolError(c, …)`, `{ code: c }`, `{ rpcCode: c }`. */
  readonly wireRaised: Set<number>;
  /** Wire codes a received or outgoing code is compared with: `x.code === c`, `case c:`. */
  readonly wireCompared: Set<number>;
  /** Gateway codes put into an error: `new GatewayError(c, …)`, `{ reason: c }`. */
  readonly gatewayRaised: Set<string>;
  /** Numeric codes written as literals where a code is raised or compared (they belong in the catalogue), as `file: code`. */
  readonly literalCodes: string[];
  /** How many files were read (so a scan that read nothing cannot pass). */
  readonly files: number;
}

const CATALOGUE_FILES = new Set(['protocol/errors.ts', 'protocol/gateway-errors.ts']);
const CATALOGUED = new Set<number>(Object.values(RpcCode));

/** Whether a number is (or looks like) a JSON-RPC error code: catalogued, or in the range JSON-RPC reserves (exit codes and statuses are not). */
function isWireCode(value: number): boolean {
  return CATALOGUED.has(value) || (value >= -32768 && value <= -32000);
}

/** The runtime sources of src/ (no tests, no `testing/` helpers, no catalogue), by path relative to src/. */
function runtimeSources(): Map<string, string> {
  const root = new URL('../../', import.meta.url);
  const out = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const path = entry.split(/[\\/]/).join('/');
    if (!path.endsWith('.ts') || path.endsWith('.test.ts') || path.split('/').includes('testing') || CATALOGUE_FILES.has(path)) continue;
    out.set(path, readFileSync(new URL(path, root), 'utf8'));
  }
  return out;
}

/** Every `const name = initializer` of a file, by name (a name declared twice keeps both). */
function constants(file: ts.SourceFile): Map<string, ts.Expression[]> {
  const out = new Map<string, ts.Expression[]>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      out.set(node.name.text, [...(out.get(node.name.text) ?? []), node.initializer]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

type Value = { kind: 'number'; value: number; literal: boolean } | { kind: 'string'; value: string };

/** The code values an expression can have: literals, `RpcCode.X`, `GatewayErrorCode.X`, either branch of `a ? b : c`, and same-file constants. */
function valuesOf(expression: ts.Expression, consts: Map<string, ts.Expression[]>, depth = 0): Value[] {
  if (depth > 4) return [];
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression)) return valuesOf(expression.expression, consts, depth + 1);
  if (ts.isNumericLiteral(expression)) return [{ kind: 'number', value: Number(expression.text), literal: true }];
  if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(expression.operand)) {
    return [{ kind: 'number', value: -Number(expression.operand.text), literal: true }];
  }
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [{ kind: 'string', value: expression.text }];
  if (ts.isConditionalExpression(expression)) return [...valuesOf(expression.whenTrue, consts, depth + 1), ...valuesOf(expression.whenFalse, consts, depth + 1)];
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    const name = expression.name.text;
    if (expression.expression.text === 'RpcCode' && name in RpcCode) return [{ kind: 'number', value: RpcCode[name as keyof typeof RpcCode], literal: false }];
    if (expression.expression.text === 'GatewayErrorCode') return [{ kind: 'string', value: name }];
    return [];
  }
  if (ts.isIdentifier(expression)) {
    return (consts.get(expression.text) ?? []).flatMap((initializer) => valuesOf(initializer, consts, depth + 1));
  }
  return [];
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Whether an expression reads a `code` (`error.code`, `rpc?.code`, a variable named `code`): what a number is compared with to recognise a code. */
function readsCode(expression: ts.Expression): boolean {
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text === 'code';
  return ts.isIdentifier(expression) && /code$/i.test(expression.text);
}

/** Scans `sources` (path relative to src/ → text); by default the runtime sources of src/. */
export function scanCodeUses(sources: ReadonlyMap<string, string> = runtimeSources()): CodeUses {
  const uses: CodeUses = { wireRaised: new Set(), wireCompared: new Set(), gatewayRaised: new Set(), literalCodes: [], files: 0 };
  for (const [path, text] of sources) {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
    const consts = constants(file);
    (uses as { files: number }).files += 1;
    const wire = (into: Set<number>) => (expression: ts.Expression): void => {
      for (const value of valuesOf(expression, consts)) {
        if (value.kind !== 'number' || !isWireCode(value.value)) continue;
        into.add(value.value);
        if (value.literal) uses.literalCodes.push(`${path}: ${value.value}`);
      }
    };
    const raiseWire = wire(uses.wireRaised);
    const compareWire = wire(uses.wireCompared);
    const raiseGateway = (expression: ts.Expression): void => {
      for (const value of valuesOf(expression, consts)) if (value.kind === 'string' && value.value.startsWith('GW_ERR_')) uses.gatewayRaised.add(value.value);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.arguments?.[0] !== undefined) {
        if (node.expression.text === 'ProtocolError') raiseWire(node.arguments[0]);
        if (node.expression.text === 'GatewayError') raiseGateway(node.arguments[0]);
      }
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
        if (node.name.text === 'code' || node.name.text === 'rpcCode') raiseWire(node.initializer);
        if (node.name.text === 'reason') raiseGateway(node.initializer);
      }
      if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
        if (readsCode(node.left)) compareWire(node.right);
        if (readsCode(node.right)) compareWire(node.left);
      }
      if (ts.isCaseClause(node) && ts.isSwitchStatement(node.parent.parent) && readsCode(node.parent.parent.expression)) compareWire(node.expression);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return uses;
}
