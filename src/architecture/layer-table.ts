/** @module Renders design 001's layer section from LAYERS and EXCEPTIONS of .dependency-cruiser.mjs (`npm run gen:layers` writes it; a test fails when the doc drifts). */
import type { Exception, Layer, Room } from '../../.dependency-cruiser.mjs';

/** The markers around the generated part of docs/design/001-architecture.md. */
export const BEGIN = '<!-- layers:begin: generated from .dependency-cruiser.mjs by `npm run gen:layers`, do not edit by hand -->';
export const END = '<!-- layers:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function flags(room: Room): string {
  return [room.edge ? 'edge' : '', room.sdkClient ? 'sdk client' : '', room.pure ? 'pure' : ''].filter(Boolean).join(', ');
}

/** The allowed imports as one line, top to bottom; sibling rooms in braces. */
export function arrowLine(layers: Layer[]): string {
  return layers.map((layer) => (layer.rooms.length === 1 ? layer.rooms[0]!.name : `{${layer.rooms.map((room) => room.name).join(', ')}}`)).join(' → ');
}

/** The generated section, markers included. */
export function renderLayerSection(layers: Layer[], exceptions: Exception[]): string {
  const rows = layers.flatMap((layer, index) =>
    layer.rooms.map((room) => `| ${index + 1} | ${cell(layer.layer)} | ${cell(room.name)} | ${room.globs.map((glob) => `\`${glob}\``).join(' ')} | ${cell(room.holds)} | ${flags(room)} |`),
  );
  const upward = exceptions.map((e) => `- \`${e.from}\` → ${e.to.map((to) => `\`${to}\``).join(', ')}: ${e.why}. Goes with ${e.removedBy}.`);
  return [
    BEGIN,
    '',
    'A module may import its own room and the rooms of every layer below it (a higher number), nothing above;',
    'rooms of one layer are siblings and do not import each other. In a glob, `src/x/*` is the files of folder x',
    'with its `testing/` and `__fixtures__/` folders, `src/x/**` the whole tree under x.',
    '',
    '| # | layer | room | files | what it holds | also |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'The allowed imports, from the top layer to the bottom:',
    '',
    '```',
    arrowLine(layers),
    '```',
    '',
    '- **edge**: the only rooms that import `hono`, `@hono/*` or the SDK\'s server side (`@modelcontextprotocol/server`, `/node`).',
    '- **sdk client**: the only rooms that import `@modelcontextprotocol/client` (both rules hold for test code too).',
    '- **pure**: its production code imports no package and no node: I/O module (fs, net, http, child_process, os, stream, ...).',
    '- Test code (`*.test.ts`, `testing/`, `__fixtures__/`) follows the same arrows and may also import test code of',
    '  any layer; production code imports no test code. No import circles (`no-circular`; type-only imports count).',
    '',
    'Imports that point up today, each a temporary exception in the config until the step named removes it:',
    '',
    ...upward,
    '',
    END,
  ].join('\n');
}

/** `doc` with the text between the markers replaced by `section`; throws when the markers are missing. */
export function replaceLayerSection(doc: string, section: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the layer markers (${BEGIN} ... ${END}) are missing`);
  return doc.slice(0, start) + section + doc.slice(end + END.length);
}
