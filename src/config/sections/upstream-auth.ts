/** @module An upstream's `auth`: OAuth 2.1 client settings for a streamable-http upstream. */

import { z } from 'zod';

import { describeValue } from '../describe-value.js';
import { custom, isUrl } from './fields.js';

/** Where the authorization server sends the code back; nothing listens there yet (docs/design/004-upstream-oauth.md). */
const DEFAULT_REDIRECT_URL = 'http://127.0.0.1/oauth/callback';

export const authSchema = z
  .strictObject({
    type: z.enum(['oauth']).meta({ description: 'oauth: OAuth 2.1 as the MCP authorization spec describes (the only kind so far).' }),
    clientId: z.string().min(1).optional().meta({ description: 'A client id registered with the authorization server beforehand (else: client metadata URL or dynamic registration). ${VAR} is expanded.' }),
    clientSecret: z.string().min(1).optional().meta({ description: 'The secret of clientId, for a confidential client. ${VAR} is expanded.' }),
    clientMetadataUrl: z
      .string()
      .refine((text) => isUrl(text, true), { error: (issue) => `must be an https:// URL with a path (got ${describeValue(issue.input)})` })
      .optional()
      .meta({ description: 'URL of a Client ID Metadata Document, used as client id when the authorization server supports it. ${VAR} is expanded.' }),
    scope: z.string().min(1).optional().meta({ description: 'Scopes to ask for when the upstream\'s challenge names none (space-separated). ${VAR} is expanded.' }),
    redirectUrl: z
      .string()
      .refine((text) => isUrl(text, false), { error: (issue) => `must be an http:// or https:// URL (got ${describeValue(issue.input)})` })
      .default(DEFAULT_REDIRECT_URL)
      .meta({ description: 'The redirect URI registered with the authorization server; the code is taken from the redirect to it. ${VAR} is expanded.' }),
  })
  .superRefine((auth, ctx) => {
    if (auth.clientSecret !== undefined && auth.clientId === undefined) custom(ctx, 'needs clientId (a secret belongs to a pre-registered client)', ['clientSecret']);
  })
  .meta({ description: 'How the gateway authorizes with this upstream (streamable-http only). Without it, an upstream asking for authorization fails to connect.' });
