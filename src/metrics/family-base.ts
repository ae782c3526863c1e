/** @module What every kind of metric does alike when it is declared: check its name and label names, and keep them with its help. */

import type { MetricType, Sample } from './exposition.js';
import type { MetricDefinition, MetricFamily } from './metric-family.js';
import { checkLabelNames, checkMetricName } from './metric-names.js';

/** How a kind of metric narrows the common declaration. */
export interface FamilyRules {
  /** The kind's own rule for the name, checked after the common one (throws when it is broken). */
  readonly checkName?: (name: string) => void;
  /** Label names the kind writes itself, so a definition may not use them. */
  readonly reservedLabels?: readonly string[];
  /** The suffixes of the sample names it writes (default: the name alone). */
  readonly sampleSuffixes?: readonly string[];
}

/** A metric family's name, help and label names, checked once for every kind. */
export abstract class FamilyBase<L extends string> implements MetricFamily {
  readonly name: string;
  readonly help: string;
  abstract readonly type: MetricType;
  readonly labelNames: readonly L[];
  readonly sampleNames: readonly string[];

  protected constructor(definition: MetricDefinition<L>, rules: FamilyRules = {}) {
    checkMetricName(definition.name);
    rules.checkName?.(definition.name);
    this.name = definition.name;
    this.help = definition.help;
    this.labelNames = definition.labelNames ?? [];
    checkLabelNames(this.name, this.labelNames, rules.reservedLabels);
    this.sampleNames = (rules.sampleSuffixes ?? ['']).map((suffix) => `${this.name}${suffix}`);
  }

  abstract samples(): Sample[];
}
