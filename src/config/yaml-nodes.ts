/** @module Finding the nodes of a parsed YAML document by config path: their line and their keys in file order. */

import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter, Node, Pair } from 'yaml';
import type { ConfigPath } from './config-path.js';

function resolve(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  if (typeof key === 'string' || typeof key === 'number') return String(key);
  return undefined;
}

function lineOfNode(node: unknown, lineCounter: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}

function findPair(map: { items: Pair[] }, segment: string | number): Pair | undefined {
  return map.items.find((pair) => keyText(pair.key) === String(segment));
}

/**
 * The line of the node at `path`: the line of its key inside a map (or of the item inside a list).
 * When the path runs out of the document (a missing key), the line of the deepest node that exists.
 */
export function lineOfPath(doc: Document, lineCounter: LineCounter, path: ConfigPath): number {
  let node: unknown = resolve(doc, doc.contents);
  let line = lineOfNode(node, lineCounter) ?? 1;
  for (const segment of path) {
    let next: unknown;
    let anchor: unknown;
    if (isMap(node)) {
      const pair = findPair(node, segment);
      anchor = pair?.key;
      next = pair?.value;
      if (pair !== undefined && lineOfNode(anchor, lineCounter) === undefined) anchor = next;
    } else if (isSeq(node) && typeof segment === 'number') {
      anchor = next = node.items[segment];
    }
    const found = lineOfNode(anchor, lineCounter);
    if (found === undefined) break;
    line = found;
    node = resolve(doc, next);
  }
  return line;
}

/** The keys of the map at `path`, in file order (JavaScript objects put integer-like keys first). */
export function mapKeysInOrder(doc: Document, path: ConfigPath): string[] {
  let node: unknown = resolve(doc, doc.contents);
  for (const segment of path) {
    node = isMap(node) ? resolve(doc, findPair(node, segment)?.value) : undefined;
  }
  if (!isMap(node)) return [];
  return node.items.map((pair) => keyText(pair.key)).filter((key): key is string => key !== undefined);
}
