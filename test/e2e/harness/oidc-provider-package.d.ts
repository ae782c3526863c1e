/** @module e2e/harness/oidc-provider-package: the few types of the untyped `oidc-provider` package that the tests' OpenID provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { JWK } from 'jose';

  /** The request context the provider's hooks receive (Koa's, with `oidc`). */
  export interface ProviderContext {
    readonly oidc: { readonly body?: Readonly<Record<string, unknown>>; readonly route?: string };
    type: string;
    body: unknown;
  }

  /** A client as the hooks see it (camel-cased metadata). */
  export interface ProviderClient {
    readonly clientId: string;
    readonly clientAuthMethod: string;
    readonly scope?: string;
  }

  /** A token as `extraTokenClaims` sees it. */
  export interface ProviderToken {
    readonly kind: string;
    readonly accountId?: string;
    readonly clientId?: string;
  }

  export interface Account {
    readonly accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface ResourceServerInfo {
    readonly scope: string;
    readonly audience?: string;
    readonly accessTokenFormat?: 'jwt' | 'opaque';
    readonly accessTokenTTL?: number;
    readonly jwt?: { readonly sign?: { readonly alg: string } };
  }

  /** Client metadata in its registration (snake_case) form. */
  export type ClientMetadata = Readonly<Record<string, unknown>> & { readonly client_id: string };

  interface Toggle {
    readonly enabled: boolean;
  }

  export interface Configuration {
    readonly clients?: readonly ClientMetadata[];
    readonly jwks?: { readonly keys: readonly JWK[] };
    readonly cookies?: { readonly keys: readonly string[] };
    readonly claims?: Readonly<Record<string, readonly string[]>>;
    readonly scopes?: readonly string[];
    readonly conformIdTokenClaims?: boolean;
    readonly pkce?: { readonly required: (ctx: ProviderContext, client: ProviderClient) => boolean };
    readonly ttl?: Readonly<Record<string, number>>;
    readonly findAccount?: (ctx: ProviderContext, id: string) => Promise<Account | undefined>;
    readonly extraTokenClaims?: (ctx: ProviderContext, token: ProviderToken) => Promise<Record<string, unknown> | undefined>;
    readonly clientBasedCORS?: (ctx: ProviderContext, origin: string, client: ProviderClient) => boolean;
    readonly renderError?: (ctx: ProviderContext, out: Readonly<Record<string, string>>, error: Error) => Promise<void>;
    readonly features?: {
      readonly devInteractions?: Toggle;
      readonly clientCredentials?: Toggle;
      readonly registration?: Toggle & { readonly initialAccessToken?: boolean };
      readonly revocation?: Toggle & { readonly allowedPolicy?: (ctx: ProviderContext, client: ProviderClient, token: ProviderToken) => Promise<boolean> };
      readonly introspection?: Toggle & { readonly allowedPolicy?: (ctx: ProviderContext, client: ProviderClient, token: ProviderToken) => Promise<boolean> };
      readonly resourceIndicators?: Toggle & {
        readonly defaultResource?: (ctx: ProviderContext, client: ProviderClient, oneOf?: string[]) => Promise<string | string[] | undefined>;
        readonly useGrantedResource?: (ctx: ProviderContext, model: unknown) => Promise<boolean>;
        readonly getResourceServerInfo?: (ctx: ProviderContext, resource: string, client: ProviderClient) => Promise<ResourceServerInfo>;
      };
    };
  }

  export type InteractionResult =
    | { readonly login: { readonly accountId: string } }
    | { readonly consent: { readonly grantId: string } }
    | { readonly error: string; readonly error_description?: string };

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    /** The request context of the request being handled (the provider keeps it in an AsyncLocalStorage). */
    static readonly ctx: ProviderContext | undefined;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: 'server_error', listener: (ctx: ProviderContext, error: Error) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: InteractionResult, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }

  export const errors: {
    readonly InvalidTarget: new (description?: string) => Error;
  };
}
