/** @module The `notify` section: webhook targets paged when a question waits for an operator, and told when it is answered or expires. */

import { z } from 'zod';

import { custom, duration } from './fields.js';

/** The events a target can be sent, in the order the docs list them. */
export const NOTIFY_EVENTS = ['question.waiting', 'question.answered', 'question.expired', 'question.abandoned'] as const;

/** What a target is sent when it names no `events`. */
export const DEFAULT_NOTIFY_EVENTS: readonly (typeof NOTIFY_EVENTS)[number][] = ['question.waiting', 'question.answered', 'question.expired'];

/** The shortest signing secret accepted: the HMAC is only as strong as its key. */
export const MIN_NOTIFY_SECRET_LENGTH = 16;

/** Most attempts of one delivery (the first and the retries). */
export const MAX_NOTIFY_ATTEMPTS = 20;

const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const TARGET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Headers the gateway writes itself: a target may not set them. */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('x-switchboard-') || ['content-type', 'content-length', 'host'].includes(lower);
}

/** An http(s) URL without a fragment (a webhook's query may carry its key, and is kept). */
function isWebhookUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hash === '' && !text.includes('#');
  } catch {
    return false;
  }
}

const DEFAULTS = { timeout: '10s', attempts: 5 } as const;

const targetSchema = z
  .strictObject({
    name: z
      .string()
      .max(100)
      .regex(TARGET_NAME_PATTERN, { error: 'must be letters, digits, _, . and -, starting with a letter or digit' })
      .optional()
      .meta({ description: 'How the audit, the console, logs and metrics name this target (its URL is never shown: it may hold a key). Default: the URL\'s host name, numbered when two share one.' }),
    url: z
      .string()
      .refine(isWebhookUrl, { error: 'must be an http:// or https:// URL without a fragment' })
      .meta({ description: 'Where each event is POSTed. ${VAR} is expanded. Never logged or shown.' }),
    format: z
      .enum(['json', 'slack'])
      .default('json')
      .meta({ description: 'json: the gateway\'s event document. slack: a Slack incoming webhook message (text and blocks).' }),
    headers: z
      .record(
        z.string().regex(HEADER_NAME_PATTERN, { error: 'is not a valid HTTP header name' }),
        z.string().refine((value) => !/[\r\n\0]/.test(value), { error: 'must not contain line breaks or NUL' }),
      )
      .default(() => ({}))
      .meta({ description: 'Extra HTTP headers of each delivery (e.g. Authorization). ${VAR} is expanded in the values. X-Switchboard-*, Content-Type, Content-Length and Host are the gateway\'s.' }),
    secret: z
      .string()
      // A refinement, not .min(): the bound's message would quote the value, and a secret is never shown.
      .refine((value) => value.length >= MIN_NOTIFY_SECRET_LENGTH, { error: `must be at least ${MIN_NOTIFY_SECRET_LENGTH} characters` })
      .optional()
      .meta({ description: 'Signs each delivery: X-Switchboard-Signature: sha256=<hex HMAC-SHA256 of the body>. ${VAR} is expanded. Never logged or shown.' }),
    events: z
      .array(z.enum(NOTIFY_EVENTS))
      .min(1)
      .default(() => [...DEFAULT_NOTIFY_EVENTS])
      .meta({ description: 'Which events this target is sent.' }),
    upstreams: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .meta({ description: 'Only questions of these upstreams (globs). Default: every upstream.' }),
    tools: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .meta({ description: 'Only questions asked by calls of these tools, as hosts see them (globs). Default: every question.' }),
    timeout: duration('How long one attempt may take (connect, send, the answer\'s status) before it counts as failed.', 1).prefault(DEFAULTS.timeout),
    attempts: z
      .int()
      .min(1)
      .max(MAX_NOTIFY_ATTEMPTS)
      .default(DEFAULTS.attempts)
      .meta({ description: 'Most attempts of one delivery: a network error, a timeout, 5xx or 429 is retried with exponential backoff and jitter (Retry-After honoured); any other 4xx is not.' }),
  })
  .superRefine((target, ctx) => {
    for (const name of Object.keys(target.headers)) {
      if (isReservedHeader(name)) custom(ctx, 'is set by the gateway (X-Switchboard-*, Content-Type, Content-Length, Host)', ['headers', name]);
    }
  });

export const notifySchema = z
  .array(targetSchema)
  .default(() => [])
  .superRefine((targets, ctx) => {
    const seen = new Set<string>();
    targets.forEach((target, index) => {
      if (target.name === undefined) return;
      if (seen.has(target.name)) custom(ctx, `another target is named ${target.name} already`, [index, 'name']);
      seen.add(target.name);
    });
  })
  .meta({ description: 'Webhooks paged when a question waits for an operator, and told when it is answered or expires (see docs/design/016-notify.md).' });

export type ParsedNotifyTarget = z.output<typeof targetSchema>;
