#!/usr/bin/env node
// Entry point of the `switchboard` command: loads the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
