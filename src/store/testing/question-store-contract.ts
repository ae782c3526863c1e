/** @module The one contract every QuestionStore implementation must pass, run by each implementation's test file. */

import { describe, test } from 'node:test';

import type { QuestionStore } from '../../questions/question-store.js';
import { lifecycleScenarios } from './contract-lifecycle.js';
import { readScenarios } from './contract-reads.js';
import { recordScenarios } from './contract-records.js';
import { transitionScenarios } from './contract-transitions.js';
import type { ContractContext, Scenario } from './contract-kit.js';
import { manualClock } from './question-fixtures.js';

/** One backing database; every store opened on it sees the same questions (as gateway instances sharing a store do). */
export interface StoreHarness {
  open(options: { owner?: string; now: () => Date }): Promise<QuestionStore>;
  /** Removes what the harness made (temporary files). */
  dispose(): Promise<void>;
}

/**
 * Registers the contract's tests under `name`; `makeHarness` gives each test a fresh, empty database. With `skip`, the
 * suite is reported skipped with that reason (a store whose server is not there), never silently passed.
 */
export function questionStoreContract(name: string, makeHarness: () => Promise<StoreHarness>, options: { skip?: string } = {}): void {
  const scenario: Scenario = (title: string, body: (context: ContractContext) => Promise<void>) => {
    test(title, async () => {
      const harness = await makeHarness();
      const clock = manualClock();
      const opened: QuestionStore[] = [];
      try {
        await body({
          clock,
          async open(options = {}) {
            const store = await harness.open({ ...options, now: clock.now });
            opened.push(store);
            return store;
          },
        });
      } finally {
        for (const store of opened) await store.close();
        await harness.dispose();
      }
    });
  };

  describe(`QuestionStore contract: ${name}`, { skip: options.skip ?? false }, () => {
    recordScenarios(scenario);
    transitionScenarios(scenario);
    readScenarios(scenario);
    lifecycleScenarios(scenario);
  });
}
