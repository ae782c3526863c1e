#!/usr/bin/env node
// Entry point of the `incident-desk` example server: loads its TypeScript source through tsx.
import { register } from 'tsx/esm/api';
register();
await import('../examples/incident-desk/main.ts');
